/**
 * Serving views, loaded on the first `resources/list` or `resources/read` that needs them (`resources.ts` holds only
 * what tells a view URI apart).
 */
import type { CacheHint, JSONObject, Resource } from '../protocol/types.ts';
import type { ResourceReadResult } from '../resources/provider.ts';
import { VIEW_MIME_TYPE, type ViewDefinition, type ViewUiMeta } from '../contracts/view.ts';

/** A CSP source the host can put in a directive as is: a scheme, a host (wildcard subdomain allowed), a port. */
const CSP_ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/** What is wrong with a view no host could render safely (the rest is checked at start-up, `resources.ts`). */
function viewProblem(view: ViewDefinition): string | undefined {
  return Object.entries(view.csp ?? {}).some(
    ([, list]) => !Array.isArray(list) || list.some((o) => !CSP_ORIGIN.test(o)),
  )
    ? 'every csp list must hold origins like https://api.example.com'
    : Object.keys(view.permissions ?? {}).some((p) => !PERMISSIONS.includes(p))
      ? `permissions may name only ${PERMISSIONS.join(', ')}`
      : view.prefersBorder !== undefined && typeof view.prefersBorder !== 'boolean'
        ? 'prefersBorder must be true or false'
        : undefined;
}

/** The `_meta.ui` of a view resource, in the listing and on the read contents alike. */
function viewUiMeta(view: ViewUiMeta): JSONObject {
  const { csp, permissions, domain, prefersBorder } = view;
  return {
    ...(csp !== undefined ? { csp: { ...csp } } : {}),
    ...(permissions !== undefined ? { permissions: { ...permissions } } : {}),
    ...(domain !== undefined ? { domain } : {}),
    ...(prefersBorder !== undefined ? { prefersBorder } : {}),
  };
}

/** Lists and reads a server's views; each document is loaded once, and again after a load that failed. */
export function viewServer(views: readonly ViewDefinition[], cache: CacheHint) {
  for (const view of views) {
    const problem = viewProblem(view);
    if (problem) throw new Error(`View ${JSON.stringify(view.uri)}: ${problem}`);
  }
  const loaded = new Map<string, Promise<string>>();
  const load = (view: ViewDefinition): Promise<string> => {
    let html = loaded.get(view.uri);
    if (!html) {
      html = Promise.resolve()
        .then(() => view.html())
        .then((text) => {
          if (typeof text !== 'string' || text === '') throw new Error(`view ${view.uri} loaded no document`);
          return text;
        });
      html.catch(() => loaded.delete(view.uri));
      loaded.set(view.uri, html);
    }
    return html;
  };
  // SEP-1865 "Resource Discovery": hosts find views through tools, and listing them lets hosts and reviewers see
  // every view the server can show (the spec's auditability), so they are listed.
  const listing: Resource[] = views.map((v) => ({
    uri: v.uri,
    name: v.name,
    ...(v.title !== undefined ? { title: v.title } : {}),
    ...(v.description !== undefined ? { description: v.description } : {}),
    mimeType: VIEW_MIME_TYPE,
    _meta: { ui: viewUiMeta(v) },
  }));
  return {
    list: () => listing,
    async read(view: ViewDefinition): Promise<ResourceReadResult> {
      const text = await load(view);
      return {
        contents: [{ uri: view.uri, mimeType: VIEW_MIME_TYPE, text, _meta: { ui: viewUiMeta(view) } }],
        cache: view.cache ?? cache,
      };
    },
  };
}
