/**
 * `WWW-Authenticate: Bearer …` challenges (RFC 6750 §3) carrying the RFC 9728 §5.1 `resource_metadata` pointer,
 * as the MCP authorization spec asks of every 401 and of the 403 for missing scopes.
 */

/** RFC 6750 §3.1 error codes this server uses. */
type BearerError = 'invalid_token' | 'insufficient_scope';

/** The parts of one challenge. */
export interface ChallengeParams {
  /** Absent when the request carried no token at all (RFC 6750 §3.1: then no error code SHOULD be sent). */
  error?: BearerError;
  description?: string;
  /** Scopes needed for the request (RFC 6750 §3 `scope`); the MCP client requests these. */
  scopes?: readonly string[];
  /** Absolute URL of the protected resource metadata document. */
  resourceMetadata: string;
}

/** RFC 6750 allows only printable ASCII without `"` and `\` inside error_description and scope. */
const quotable = (value: string) => value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '');

/** Builds the header value, e.g. `Bearer error="invalid_token", error_description="…", resource_metadata="…"`. */
export function bearerChallenge(params: ChallengeParams): string {
  const parts: string[] = [];
  if (params.error) parts.push(`error="${params.error}"`);
  if (params.error && params.description) parts.push(`error_description="${quotable(params.description)}"`);
  if (params.scopes?.length) parts.push(`scope="${quotable(params.scopes.join(' '))}"`);
  parts.push(`resource_metadata="${quotable(params.resourceMetadata)}"`);
  return `Bearer ${parts.join(', ')}`;
}
