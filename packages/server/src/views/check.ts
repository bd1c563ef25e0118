import type { JSONObject } from '../protocol/types.ts';
import type { ToolVisibility, ViewDefinition, ViewUiMeta } from './define.ts';

/** Checks of view declarations, run once when the server is built: a mistake stops start-up, never a request. */

/** `ui://` and a host-neutral rest: no spaces, quotes or angle brackets (it lands in JSON and in host logs). */
const VIEW_URI = /^ui:\/\/[^\s"'<>\\]{1,500}$/;
/** A CSP source the host can put in a directive as is: a scheme, a host (wildcard subdomain allowed), a port. */
const CSP_ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/;
const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = new Set(['camera', 'microphone', 'geolocation', 'clipboardWrite']);
const VISIBILITY: readonly ToolVisibility[] = ['model', 'app'];

/** Whether a URI is a view URI this server could serve. */
export const isViewUri = (uri: unknown): uri is string => typeof uri === 'string' && VIEW_URI.test(uri);

/** Refuses a view that no host could render safely or that would break the listing. */
export function checkView(view: ViewDefinition): void {
  const label = `View ${JSON.stringify(view?.uri)}`;
  if (!isViewUri(view?.uri)) throw new Error(`${label}: the uri must be ui://… (no spaces or quotes)`);
  if (typeof view.name !== 'string' || view.name === '') throw new Error(`${label} has no name`);
  if (typeof view.html !== 'function')
    throw new Error(`${label}: html must be a function that loads the document`);
  if (view.prefersBorder !== undefined && typeof view.prefersBorder !== 'boolean')
    throw new Error(`${label}: prefersBorder must be true or false`);
  for (const key of CSP_KEYS) {
    const origins = view.csp?.[key];
    if (origins === undefined) continue;
    const bad = Array.isArray(origins)
      ? origins.find((o) => typeof o !== 'string' || !CSP_ORIGIN.test(o))
      : origins;
    if (bad !== undefined)
      throw new Error(
        `${label}: csp.${key} holds ${JSON.stringify(bad)}; list origins like https://api.example.com`,
      );
  }
  const unknown = Object.keys(view.permissions ?? {}).find((p) => !PERMISSIONS.has(p));
  if (unknown !== undefined) throw new Error(`${label} asks for an unknown permission "${unknown}"`);
}

/** The `_meta.ui` of a view resource, in the listing and on the read contents alike. */
export function viewUiMeta(view: ViewUiMeta): JSONObject {
  const { csp, permissions, domain, prefersBorder } = view;
  return {
    ...(csp !== undefined ? { csp: { ...csp } } : {}),
    ...(permissions !== undefined ? { permissions: { ...permissions } } : {}),
    ...(domain !== undefined ? { domain } : {}),
    ...(prefersBorder !== undefined ? { prefersBorder } : {}),
  };
}

/** What a tool says about views: the view its results are shown in, and who may call it. */
export interface ToolViewOptions {
  view?: ViewDefinition;
  visibility?: readonly ToolVisibility[];
  _meta?: JSONObject;
}

/**
 * The `_meta` a tool is listed with: its own, plus `ui` (SEP-1865 "Resource Discovery") naming its view and who may
 * call it. The deprecated flat key `ui/resourceUri` is written too, as the official server helpers do, for hosts
 * that still read only that one. `visibility` is listed only when set (the spec's default is both).
 */
export function toolMetaWithView(tool: string, options: ToolViewOptions): JSONObject | undefined {
  const { view, visibility, _meta } = options;
  if (view === undefined && visibility === undefined) return _meta;
  if (view !== undefined && !isViewUri(view?.uri))
    throw new Error(`Tool "${tool}" links a view whose uri is not ui://…`);
  if (visibility !== undefined) {
    const ok =
      Array.isArray(visibility) &&
      visibility.length > 0 &&
      new Set(visibility).size === visibility.length &&
      visibility.every((v) => VISIBILITY.includes(v));
    if (!ok)
      throw new Error(
        `Tool "${tool}" declares visibility ${JSON.stringify(visibility)}; use ["model", "app"] or ["app"]`,
      );
  }
  const own = _meta?.ui;
  return {
    ..._meta,
    ui: {
      ...(own !== null && typeof own === 'object' ? own : {}),
      ...(view ? { resourceUri: view.uri } : {}),
      ...(visibility ? { visibility: [...visibility] } : {}),
    },
    ...(view ? { 'ui/resourceUri': view.uri } : {}),
  };
}
