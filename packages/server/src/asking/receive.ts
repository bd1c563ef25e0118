import { deadlineSignal } from '../deadline.ts';
import type { JSONObject } from '../protocol/types.ts';
import { namedSession } from '../sessions/named-session.ts';
import type { Session } from '../sessions/session-id.ts';
import type { Sessions } from '../sessions/sessions.ts';
import type { Admission } from '../wire/admitted.ts';
import { ACCEPTED, refusal } from '../wire/replies.ts';
import type { HttpRequest, HttpResponse, InvocationContext } from '../wire/types.ts';
import type { AnswerDesk } from './desk.ts';

/**
 * What a client sends back over HTTP, in a session: its answer to a mid-call question, written into the call state
 * and acknowledged 202 only if a question of that session waited for it; its cancellation of one of its calls.
 */

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

/** Who sent it: the session, and the authenticated caller's client key when authorization is on. */
const senderOf = (session: Session, admitted: Admission) => ({
  session,
  ...(admitted.principal ? { principal: admitted.principal.clientKey } : {}),
});

/** Answers a client's JSON-RPC response: written into the question it answers, when one of its session waits. */
export async function receiveAnswer(
  parts: { sessions: Sessions; desk: AnswerDesk | undefined },
  {
    req,
    message,
    admitted,
    ctx,
  }: { req: HttpRequest; message: JSONObject; admitted: Admission; ctx: InvocationContext },
): Promise<HttpResponse> {
  // Nothing asks without a call state: an answer there is acknowledged and dropped, as the spec allows.
  if (!parts.desk) return ACCEPTED;
  const named = await namedSession(parts.sessions, req, admitted, ctx);
  if ('refusal' in named) return named.refusal;
  if (!named.session)
    return refusal(
      400,
      'Bad Request: an answer must carry the Mcp-Session-Id of the session it was asked in',
    );
  const from = senderOf(named.session, admitted);
  return DELIVERY_REPLY[await parts.desk.deliver(message, from, ctx.log, deadlineSignal(ctx.deadline))];
}

/** Records the client's cancellation of one of its calls; the notification is acknowledged either way. */
export async function receiveCancellation(
  desk: AnswerDesk | undefined,
  {
    params,
    session,
    admitted,
    ctx,
  }: {
    params: JSONObject | undefined;
    session: Session;
    admitted: Admission;
    ctx: InvocationContext;
  },
): Promise<void> {
  await desk?.cancel(params?.requestId, senderOf(session, admitted), ctx.log, deadlineSignal(ctx.deadline));
}
