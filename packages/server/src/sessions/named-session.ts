import { deadlineSignal } from '../deadline.ts';
import { errorFields } from '../log.ts';
import { ErrorCode, McpError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONRPCRequest, JSONRPCResponse } from '../protocol/types.ts';
import type { Revision } from '../protocol/versions.ts';
import type { Admission } from '../wire/admitted.ts';
import { errorReply, refusal } from '../wire/replies.ts';
import type { HttpRequest, HttpResponse, InvocationContext } from '../wire/types.ts';
import type { Session } from './session-id.ts';
import type { Sessions } from './sessions.ts';

/**
 * Handshake-era sessions over HTTP (spec: transports, "Session Management"): `initialize` answers with an
 * `Mcp-Session-Id` (the client's declarations, sealed); a later message naming one is read with what it sealed, or
 * answered 404 when it names no live session of this caller. 2026-07-28 requests never get one and are never checked
 * against one (the transport decides which era a message is).
 */

/** The 404 of an id that does not open: the client must initialize again. */
const SESSION_NOT_FOUND = errorReply(
  404,
  new McpError(
    ErrorCode.SessionNotFound,
    'Session not found: the Mcp-Session-Id is unknown, expired or not yours; send initialize to start a new session',
  ),
);

/** 503 when the session keys cannot be read (a secret store that does not answer): the next request retries. */
const KEYS_UNAVAILABLE = refusal(
  503,
  'Service unavailable: sessions cannot be read right now; retry shortly',
  {
    'retry-after': '2',
  },
);

/** A signal for a key read: the invocation's deadline, or a few seconds where there is none. */
const keySignal = (ctx: InvocationContext) => deadlineSignal(ctx.deadline) ?? AbortSignal.timeout(5_000);

/** The session a message names: none (no header), the session, or the response refusing the message. */
export async function namedSession(
  sessions: Sessions,
  req: HttpRequest,
  admitted: Admission,
  ctx: InvocationContext,
): Promise<{ session?: Session } | { refusal: HttpResponse }> {
  const id = req.headers['mcp-session-id']?.trim();
  if (!id) return {};
  try {
    const session = await sessions.open(id, admitted.principal?.clientKey, keySignal(ctx));
    return session ? { session } : { refusal: SESSION_NOT_FOUND };
  } catch (error) {
    ctx.log.error('session keys cannot be read', { error: errorFields(error) });
    return { refusal: KEYS_UNAVAILABLE };
  }
}

/** The revision as the session refines it: what the client declared, and its version when no header names one. */
export function withSession(
  revision: Revision,
  session: Session,
  headerVersion: string | undefined,
): Revision {
  return {
    ...revision,
    ...(headerVersion === undefined ? { protocolVersion: session.protocolVersion } : {}),
    clientCapabilities: session.capabilities,
    ...(session.clientInfo ? { clientInfo: session.clientInfo } : {}),
  };
}

/** The `Mcp-Session-Id` header of a successful `initialize` answer; none when the keys cannot be read. */
export async function sessionHeader(
  sessions: Sessions,
  request: JSONRPCRequest,
  response: JSONRPCResponse,
  admitted: Admission,
  ctx: InvocationContext,
): Promise<Record<string, string>> {
  if (!('result' in response)) return {};
  const params = request.params ?? {};
  try {
    const id = await sessions.issue(
      {
        protocolVersion: String(response.result.protocolVersion),
        capabilities: isJsonObject(params.capabilities) ? params.capabilities : {},
        ...(isJsonObject(params.clientInfo) ? { clientInfo: params.clientInfo } : {}),
      },
      admitted.principal?.clientKey,
      keySignal(ctx),
    );
    return { 'mcp-session-id': id };
  } catch (error) {
    // Without a session the client still works; it cannot be asked mid-call.
    ctx.log.error('session keys cannot be read; initialize answered without a session', {
      error: errorFields(error),
    });
    return {};
  }
}
