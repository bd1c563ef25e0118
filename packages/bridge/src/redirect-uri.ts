import { BridgeLimits } from './limits.ts';

/**
 * Redirect URI policy (OAuth 2.1 §2.3.1, RFC 8252 §7.3 and §8.3, MCP security best practices): https anywhere,
 * plain http only to a loopback host, no fragment, no credentials, no wildcards; a presented URI must equal a
 * registered one exactly, except the port of a loopback URI, which native clients pick at random per sign-in.
 */

/** Loopback hosts whose http redirects are allowed and whose port may vary. `localhost` is not recommended by
 * RFC 8252 §8.3, but MCP clients (the Inspector, Claude Code) use it, and it stays on the user's machine. */
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost'];

/** One DNS label (RFC 1123 §2.1: letters, digits and inner hyphens; punycode for internationalised names). */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** The authority as written: host characters, an IPv6 literal's brackets and colons, and a port. */
const AUTHORITY = /^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?$/;

/**
 * Whether the URI's host is a hostname or an IP literal, written plainly. The URL parser accepts hosts such as
 * `x;sandbox` or `a,b` (WHATWG forbids only a few code points), and a host is shown on the consent page and named
 * in its Content-Security-Policy: only hostname characters may get that far.
 */
function plainHost(value: string, url: URL): boolean {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(value)?.[1] ?? '';
  if (!AUTHORITY.test(authority)) return false;
  return url.hostname.startsWith('[') || (url.hostname.length <= 253 && HOSTNAME.test(url.hostname));
}

/** Why a redirect URI cannot be registered, or undefined when it can. */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'a redirect URI must be a non-empty string';
  if (value.length > BridgeLimits.maxUriChars)
    return `a redirect URI must be at most ${BridgeLimits.maxUriChars} characters`;
  // The URL parser drops surrounding spaces and inner tabs and newlines: such a URI is not one exact string.
  if (/[\u0000-\u0020\u007f]/.test(value))
    return 'a redirect URI must not contain whitespace or control characters';
  if (!URL.canParse(value)) return 'a redirect URI must be an absolute URL';
  const url = new URL(value);
  if (value.includes('#') || url.hash) return 'a redirect URI must not contain a fragment';
  if (url.username || url.password) return 'a redirect URI must not contain credentials';
  if (value.includes('*')) return 'a redirect URI must not contain wildcards';
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !plainHost(value, url))
    return 'a redirect URI host must be a hostname (letters, digits, hyphens and dots; punycode for other names) or an IP address';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return undefined;
  return 'a redirect URI must use https, or http on a loopback host (127.0.0.1, [::1], localhost)';
}

/** A loopback redirect URI as written: host, then everything after the port. */
const LOOPBACK_PARTS = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::([1-9][0-9]{0,4}))?([/?].*)?$/;

/** The loopback URI without its port, as a string; undefined for anything else (or a port out of range). */
function withoutPort(value: string): string | undefined {
  const match = LOOPBACK_PARTS.exec(value);
  if (!match || (match[2] !== undefined && Number(match[2]) > 65_535)) return undefined;
  return `${match[1]}${match[3] ?? ''}`;
}

/**
 * Whether a presented redirect URI matches a registered one (RFC 9700 §4.1.3, RFC 8252 §7.3): the same string,
 * or for loopback URIs the same string but for the port. Compared as written, never after URL normalisation, so
 * other spellings of the host (`127.1`, `LOCALHOST`), dot segments or stripped characters never match.
 */
export function redirectUriMatches(registered: string, presented: string): boolean {
  if (registered === presented) return true;
  if (redirectUriProblem(presented) !== undefined) return false;
  const a = withoutPort(registered);
  return a !== undefined && a === withoutPort(presented);
}

/** The registered URI a presented one matches, if any. */
export function findRedirectUri(registered: readonly string[], presented: string): string | undefined {
  return registered.find((uri) => redirectUriMatches(uri, presented));
}

/** The part of a redirect URI the consent page names: host and, when not the default, port. */
export function redirectHost(value: string): string {
  return new URL(value).host;
}

/** Where the browser is sent back to, as the consent page shows it whole: scheme, host and port. */
export function redirectOrigin(value: string): string {
  return new URL(value).origin;
}
