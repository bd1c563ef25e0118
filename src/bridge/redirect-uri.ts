import { BridgeLimits } from '../limits.ts';

/**
 * Redirect URI policy (OAuth 2.1 §2.3.1, RFC 8252 §7.3 and §8.3, MCP security best practices): https anywhere,
 * plain http only to a loopback host, no fragment, no credentials, no wildcards; a presented URI must equal a
 * registered one exactly, except the port of a loopback URI, which native clients pick at random per sign-in.
 */

/** Loopback hosts whose http redirects are allowed and whose port may vary. `localhost` is not recommended by
 * RFC 8252 §8.3, but MCP clients (the Inspector, Claude Code) use it, and it stays on the user's machine. */
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost'];

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'a redirect URI must be a non-empty string';
  if (value.length > BridgeLimits.maxUriChars)
    return `a redirect URI must be at most ${BridgeLimits.maxUriChars} characters`;
  if (!URL.canParse(value)) return 'a redirect URI must be an absolute URL';
  const url = new URL(value);
  if (value.includes('#') || url.hash) return 'a redirect URI must not contain a fragment';
  if (url.username || url.password) return 'a redirect URI must not contain credentials';
  if (value.includes('*')) return 'a redirect URI must not contain wildcards';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return undefined;
  return 'a redirect URI must use https, or http on a loopback host (127.0.0.1, [::1], localhost)';
}

/** Whether an http redirect URI points at a loopback host (its port may then differ from the registered one). */
export function isLoopbackRedirect(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
}

/**
 * Whether a presented redirect URI matches a registered one: the same string, or for loopback URIs the same
 * scheme, host, path and query with any port.
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  if (!isLoopbackRedirect(registered) || !isLoopbackRedirect(presented)) return false;
  if (redirectUriProblem(presented) !== undefined) return false;
  const a = new URL(registered);
  const b = new URL(presented);
  return a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
}

/** The registered URI a presented one matches, if any. */
export function findRedirectUri(registered: readonly string[], presented: string): string | undefined {
  return registered.find((uri) => redirectUriMatches(uri, presented));
}

/** The part of a redirect URI the consent page names: host and, when not the default, port. */
export function redirectHost(value: string): string {
  return new URL(value).host;
}
