/** Reading the access token: only from the `Authorization: Bearer` header (RFC 6750 §2.1; MCP authorization spec). */

/** What the Authorization header holds, as far as bearer authentication is concerned. */
export type BearerCredential = { kind: 'absent' } | { kind: 'malformed' } | { kind: 'token'; token: string };

/** RFC 6750 §2.1 `b64token`: the only characters a bearer token may contain. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Extracts the bearer token. No header, or another scheme (e.g. Basic), counts as absent: the client offered no
 * bearer token. A Bearer header whose token is empty or not a `b64token` is malformed. The scheme name is
 * case-insensitive (RFC 9110 §11.1).
 */
export function readBearer(authorization: string | undefined): BearerCredential {
  if (authorization === undefined) return { kind: 'absent' };
  const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+)(?: +(.*))?$/.exec(authorization.trim());
  if (!match || match[1]!.toLowerCase() !== 'bearer') return { kind: 'absent' };
  const token = (match[2] ?? '').trim();
  return B64TOKEN.test(token) ? { kind: 'token', token } : { kind: 'malformed' };
}
