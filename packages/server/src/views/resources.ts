import type { CacheHint, Resource } from '../protocol/types.ts';
import type { ResourceProvider, ResourceReadResult } from '../resources/provider.ts';
import { checkView, viewUiMeta } from './check.ts';
import { VIEW_MIME_TYPE, type ViewDefinition } from './define.ts';

/**
 * The server's views as resources: the MCP function itself answers `resources/read` of a `ui://` URI (never the
 * companion: a view is code of the deployment, not a stored output). Each document is loaded on its first read and
 * kept; a load that fails is tried again on the next read.
 */
export function viewResources(views: readonly ViewDefinition[], cache: CacheHint): ResourceProvider {
  const byUri = new Map(views.map((v) => [v.uri, v]));
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
    owns: (uri) => byUri.has(uri),
    async read(uri): Promise<ResourceReadResult | undefined> {
      const view = byUri.get(uri);
      if (!view) return undefined;
      const text = await load(view);
      return {
        contents: [{ uri, mimeType: VIEW_MIME_TYPE, text, _meta: { ui: viewUiMeta(view) } }],
        cache: view.cache ?? cache,
      };
    },
    list: () => listing,
  };
}

/**
 * Every view of a server: those given on their own and those its tools link, each once. Two different declarations
 * of one URI are a mistake (which document would the host get?), refused at start-up like a duplicate tool name.
 */
export function collectViews(
  views: readonly ViewDefinition[],
  linked: readonly (ViewDefinition | undefined)[],
): ViewDefinition[] {
  const byUri = new Map<string, ViewDefinition>();
  for (const view of [...views, ...linked]) {
    if (view === undefined) continue;
    checkView(view);
    const known = byUri.get(view.uri);
    if (known !== undefined && known !== view) throw new Error(`View "${view.uri}" is declared twice`);
    byUri.set(view.uri, view);
  }
  return [...byUri.values()];
}
