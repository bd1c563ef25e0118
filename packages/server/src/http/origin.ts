/**
 * Origin and Host checks (spec: transports, "Security Warning"): a browser page on a foreign origin must not reach
 * the server, and a local server must not answer a rebound DNS name. Patterns are exact values, optionally with a
 * `*` port (`http://localhost:*`, `127.0.0.1:*`), or a lone `*` meaning "any".
 */

/**
 * Request headers an MCP client sends (Streamable HTTP, all revisions): the ones a CORS preflight must allow, in
 * API Gateway's configuration (packages/cdk) and in the local server's emulation of it alike.
 */
export const MCP_CORS_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'mcp-session-id',
] as const;

/** How long a browser may keep a preflight answer, in seconds (one hour, deployed and local). */
export const CORS_MAX_AGE_SECONDS = 3600;

/** A TCP port as a URL or Host header writes it: 1 to 5 digits naming 0–65535. */
const isPort = (text: string) => /^\d{1,5}$/.test(text) && Number(text) <= 65_535;

function matches(value: string, pattern: string): boolean {
  if (pattern === '*') return true;
  const v = value.toLowerCase();
  const p = pattern.toLowerCase();
  if (p.endsWith(':*')) {
    const base = p.slice(0, -2);
    return v === base || (v.startsWith(`${base}:`) && isPort(v.slice(base.length + 1)));
  }
  return v === p;
}

/** An absent Origin is allowed (non-browser clients send none); a present one must be on the list. */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  return origin === undefined || allowed.some((p) => matches(origin, p));
}

/** With no host list configured every Host passes (API Gateway already pins the host); otherwise it must match. */
export function isHostAllowed(host: string | undefined, allowed: readonly string[] | undefined): boolean {
  if (allowed === undefined) return true;
  return host !== undefined && allowed.some((p) => matches(host, p));
}

/**
 * CORS headers for the answer to an allowed browser origin: the origin itself, and the headers the page must read:
 * the 401/403 challenge (it names the authorization server) and the `Mcp-Session-Id` that `initialize` issues (the
 * session a handshake-era client is asked mid-call in). API Gateway HTTP APIs with CORS configured send their own
 * instead; REST API proxy integrations and the local server send these.
 */
export function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  if (origin === undefined || !allowed.some((p) => matches(origin, p))) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'www-authenticate, mcp-session-id',
    vary: 'origin',
  };
}
