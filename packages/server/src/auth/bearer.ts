/** Reading the access token: only from the `Authorization: Bearer` header (RFC 6750 §2.1; MCP authorization spec). */

/** What the Authorization header holds, as far as bearer authentication is concerned. */
export type BearerCredential = { kind: 'absent' } | { kind: 'malformed' } | { kind: 'token'; token: string };

/** RFC 9110 §11.1 `auth-scheme` (a token). One character class, anchored: linear in the input. */
const SCHEME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** RFC 6750 §2.1 `b64token`: the only characters a bearer token may contain. Linear: `=` is not in the class. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Extracts the bearer token. No header, or another scheme (e.g. Basic), counts as absent: the client offered no
 * bearer token. A Bearer header whose token is empty or not a `b64token` is malformed. The scheme name is
 * case-insensitive (RFC 9110 §11.1). Split at the first space rather than with one regular expression: a pattern
 * with two adjacent repetitions backtracks quadratically on long runs of spaces, and API Gateway passes header
 * values through that Node's own parser would have refused.
 */
export function readBearer(authorization: string | undefined): BearerCredential {
  if (authorization === undefined) return { kind: 'absent' };
  const value = authorization.trim();
  const space = value.indexOf(' ');
  const scheme = space === -1 ? value : value.slice(0, space);
  if (!SCHEME.test(scheme) || scheme.toLowerCase() !== 'bearer') return { kind: 'absent' };
  // RFC 6750 §2.1: `Bearer 1*SP b64token`; only spaces separate them (the trim above took trailing whitespace).
  let start = space === -1 ? value.length : space;
  while (value[start] === ' ') start += 1;
  const token = value.slice(start);
  return B64TOKEN.test(token) ? { kind: 'token', token } : { kind: 'malformed' };
}
