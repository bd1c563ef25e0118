import type { AnswerDesk } from '../asking/desk.ts';
import { deadlineSignal } from '../deadline.ts';
import { errorFields } from '../log.ts';
import { ErrorCode, McpError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject, JSONRPCRequest, JSONRPCResponse } from '../protocol/types.ts';
import type { Revision } from '../protocol/versions.ts';
import type { Session } from '../sessions/session-id.ts';
import type { Sessions } from '../sessions/sessions.ts';
import type { Admitted } from './admit.ts';
import { ACCEPTED, errorReply, refusal } from './replies.ts';
import type { HttpRequest, HttpResponse, InvocationContext } from './types.ts';

/**
 * Handshake-era sessions at the HTTP layer (spec: transports, "Session Management"): `initialize` answers with an
 * `Mcp-Session-Id` (the client's declarations, sealed); a later message naming one is read with what it sealed, or
 * answered 404 when it names no live session of this caller; a client's answer to a mid-call question is written
 * into the call state, and acknowledged 202 only if a question of that session waited for it. 2026-07-28 requests
 * never get one and are never checked against one (the transport decides which era a message is).
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
  admitted: Admitted,
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
  admitted: Admitted,
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

/** What the answer or cancellation of a session did, as the client is told. */
const DELIVERY_REPLY = {
  accepted: ACCEPTED,
  refused: refusal(
    400,
    'Bad Request: no question of this server waits for this answer (unknown, already answered, expired, or asked of ' +
      'another session)',
  ),
  failed: refusal(503, 'Service unavailable: the answer could not be recorded; retry shortly', {
    'retry-after': '1',
  }),
} as const;

/** Answers a client's JSON-RPC response: written into the question it answers, when one of its session waits. */
export async function receiveAnswer(
  parts: { sessions?: Sessions; answers?: () => Promise<AnswerDesk> },
  req: HttpRequest,
  message: JSONObject,
  admitted: Admitted,
  ctx: InvocationContext,
): Promise<HttpResponse> {
  // Nothing asks without a call state: an answer there is acknowledged and dropped, as the spec allows.
  if (!parts.answers || !parts.sessions) return ACCEPTED;
  const named = await namedSession(parts.sessions, req, admitted, ctx);
  if ('refusal' in named) return named.refusal;
  if (!named.session)
    return refusal(
      400,
      'Bad Request: an answer must carry the Mcp-Session-Id of the session it was asked in',
    );
  const from = {
    session: named.session,
    ...(admitted.principal ? { principal: admitted.principal.clientKey } : {}),
  };
  const desk = await parts.answers();
  return DELIVERY_REPLY[await desk.deliver(message, from, ctx.log, deadlineSignal(ctx.deadline))];
}

/** Records the client's cancellation of one of its calls; the notification is acknowledged either way. */
export async function receiveCancellation(
  answers: (() => Promise<AnswerDesk>) | undefined,
  params: JSONObject | undefined,
  session: Session,
  admitted: Admitted,
  ctx: InvocationContext,
): Promise<void> {
  if (!answers) return;
  const from = { session, ...(admitted.principal ? { principal: admitted.principal.clientKey } : {}) };
  await (await answers()).cancel(params?.requestId, from, ctx.log, deadlineSignal(ctx.deadline));
}
