import type { HttpResponse } from '@mcp-lambda/server/lambda';
import type { RequestNote } from './endpoints.ts';
import { jsonResponse } from './http.ts';

/** The error codes of the token and revocation endpoints (RFC 6749 §5.2, RFC 8707 §2, RFC 7009 §2.2.1). */
export type TokenError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unsupported_token_type';

/** An RFC 6749 §5.2 error answer; a client that tried HTTP Basic gets 401 with a Basic challenge. */
export function tokenFailure(
  note: RequestNote,
  error: TokenError,
  description: string,
  basic = false,
): HttpResponse {
  note.error = error;
  const status = error === 'invalid_client' ? 401 : 400;
  return jsonResponse(
    status,
    { error, error_description: description },
    basic && status === 401 ? { 'www-authenticate': 'Basic realm="token"' } : {},
  );
}

/** A provider or store that could not answer in time: nothing was written, so the same request may be retried. */
export function temporarilyUnavailable(note: RequestNote, description: string): HttpResponse {
  note.error = 'temporarily_unavailable';
  return jsonResponse(
    503,
    { error: 'temporarily_unavailable', error_description: description },
    { 'retry-after': '5' },
  );
}
