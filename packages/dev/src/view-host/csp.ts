/**
 * The Content-Security-Policy a host gives a view (SEP-1865 "Host Behavior" and "CSP Construction from Metadata"):
 * the restrictive default when the view declares no origins, else the declared origins and nothing more.
 */

/** What a view's `_meta.ui.csp` may declare. */
export interface DeclaredCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The spec's default when `_meta.ui.csp` is omitted, and what blocks plugins and foreign frames besides. */
const DEFAULT_VIEW_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; " +
  "base-uri 'self'";

/** A source the header can carry as is (an origin, wildcard subdomain allowed); anything else is dropped. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/;
const origins = (list: unknown): string =>
  Array.isArray(list)
    ? list.filter((o): o is string => typeof o === 'string' && ORIGIN.test(o)).join(' ')
    : '';

/** The header value for a view's declared policy. */
export function viewCsp(declared: DeclaredCsp | undefined): string {
  const any = declared && Object.values(declared).some((list) => Array.isArray(list) && list.length > 0);
  if (!any) return DEFAULT_VIEW_CSP;
  const resources = origins(declared.resourceDomains);
  const with_ = (base: string, extra: string) => (extra ? `${base} ${extra}` : base);
  return [
    "default-src 'none'",
    with_("script-src 'self' 'unsafe-inline'", resources),
    with_("style-src 'self' 'unsafe-inline'", resources),
    with_("connect-src 'self'", origins(declared.connectDomains)),
    with_("img-src 'self' data:", resources),
    with_("font-src 'self'", resources),
    with_("media-src 'self' data:", resources),
    `frame-src ${origins(declared.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${origins(declared.baseUriDomains) || "'self'"}`,
  ].join('; ');
}
