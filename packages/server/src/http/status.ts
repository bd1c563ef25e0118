import { ErrorCode } from '../protocol/errors.ts';
import type { JSONRPCResponse } from '../protocol/types.ts';
import type { Era } from '../protocol/versions.ts';

/**
 * HTTP statuses of JSON-RPC answers: the transport's decision, from the spec's Streamable HTTP transport (2025-11-25
 * "Sending Messages to the Server"; 2026-07-28, its header and error-status rules). A message that cannot be read,
 * classified or matched with its headers is
 * a 400 whatever the code; a dispatched request's error travels in a 200 except where a rule names a status.
 */
export const PRE_DISPATCH_STATUS = 400;

/** The status of a dispatched request's response. */
export function responseStatus(response: JSONRPCResponse, era: Era): number {
  if (!('error' in response)) return 200;
  switch (response.error.code) {
    // 2026-07-28 Streamable HTTP: an unknown method is answered with HTTP 404.
    case ErrorCode.MethodNotFound:
      return era === 'stateless' ? 404 : 200;
    // 2026-07-28 basic/lifecycle: a request relying on an undeclared client capability is a 400.
    case ErrorCode.MissingRequiredClientCapability:
      return 400;
    default:
      return 200;
  }
}
