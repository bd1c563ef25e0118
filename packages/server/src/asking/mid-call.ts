import type { LiveChannel } from '../live-channel.ts';
import type { InputRequest } from '../input/input-required.ts';
import { tracedParams } from '../outbound.ts';
import { errorFields, type Logger } from '../log.ts';
import { clientText } from '../protocol/client-text.ts';
import type { JSONObject, RequestId } from '../protocol/types.ts';
import type { Session } from '../sessions/session-id.ts';
import { newAskId, wireId } from './ask-ids.ts';
import { callerOf, slotOf } from '../call-state/ids.ts';
import type { Answer, PolledCallState } from '../call-state/stores.ts';
import { declares, notDeclared } from './questions.ts';
import { AskError, type AskCall, type Asker } from '../contracts/asking.ts';
import { waitForAnswer } from './waiting.ts';

/**
 * Asking mid-call (handshake era, streaming API; spec: transports, "Sending Messages to the Server"): the question
 * goes out on the call's own event stream as a JSON-RPC request, and the call waits for the client's answer, which
 * arrives as a new POST on any instance and reaches this call through the call state. One question at a time per
 * call: a second ask waits for the first to settle.
 */

/** What a mid-call asker needs of its request. */
export interface MidCallSetup {
  /** The call's event stream. */
  live: LiveChannel;
  callState: PolledCallState;
  /** The client's session: what it declared, and what its answers are bound to. */
  session: Session;
  /** The authenticated caller's client key (`Principal.clientKey`), when authorization is on. */
  principal?: string;
  /** The JSON-RPC id of the call (its cancellation names it). */
  callId: RequestId;
  log: Logger;
}

/** Time kept after a wait so the tool can still answer with what happened. */
const ANSWER_MARGIN_MS = 1_000;

/** The error or failure an answer carried, as the tool sees it. */
function answered(answer: Answer): JSONObject {
  if ('result' in answer) return answer.result;
  if ('failure' in answer)
    throw new AskError('rejected', `The client's answer could not be used: ${answer.failure}.`);
  throw new AskError(
    'rejected',
    `The client answered the question with an error (${answer.error.code}): ${clientText(answer.error.message)}.`,
  );
}

/** The ask's failure when the client cancelled the call (`notifications/cancelled`). */
const cancelledWhile = (when: string) => new AskError('cancelled', `The client cancelled this call ${when}.`);

/** Records the question, sends it on the stream, waits for its outcome; the item is removed whatever happens. */
async function askOnce(setup: MidCallSetup, request: InputRequest, call: AskCall): Promise<JSONObject> {
  if (!declares(setup.session.capabilities, request)) throw notDeclared(request, false);
  const waitMs = Math.floor(call.remainingMs() - ANSWER_MARGIN_MS);
  const timedOut = () =>
    new AskError(
      'timeout',
      `No answer came within ${Math.max(0, Math.round(waitMs / 1000))} s (the tool's time budget), so the tool ` +
        `stopped waiting. Ask again when the user is ready, or ask them directly in the conversation.`,
    );
  if (waitMs <= 0) throw timedOut();
  const { callState, log } = setup;
  const caller = callerOf(setup.session.id, setup.principal);
  const slot = slotOf(caller, setup.callId);
  const askId = newAskId();
  const signal = AbortSignal.any([call.signal, AbortSignal.timeout(waitMs)]);
  const expiresAt = Date.now() + waitMs;
  let opened: boolean;
  try {
    opened = await callState.questions.open({ slot, askId, caller, expiresAt }, signal);
  } catch (error) {
    if (call.signal.aborted) throw call.signal.reason;
    log.error('call state write failed: the question was not asked', { error: errorFields(error) });
    throw new AskError(
      'unavailable',
      'The question could not be recorded, so it was not asked; try again shortly.',
    );
  }
  if (!opened) throw cancelledWhile('before it asked');
  // Removes the question once, best effort (the TTL removes it anyway); the answer it held when removed, if any.
  let closing: Promise<Answer | undefined> | undefined;
  const close = () =>
    (closing ??= callState.questions
      .close({ slot, askId }, AbortSignal.timeout(ANSWER_MARGIN_MS))
      .catch((error: unknown) => {
        log.warn('call state close failed', { error: errorFields(error) });
        return undefined;
      }));
  try {
    setup.live.send({
      jsonrpc: '2.0',
      id: wireId(slot, askId),
      method: request.method,
      params: tracedParams(request.params) ?? {},
    });
    const { settled, reads } = await waitForAnswer(callState, slot, askId, signal, log);
    log.debug('ask settled', {
      method: request.method,
      outcome: typeof settled === 'string' ? settled : settled.state,
      reads,
    });
    // The call itself ended (cancelled, out of time).
    if (settled === 'aborted' && call.signal.aborted) throw call.signal.reason;
    if (settled !== 'aborted' && settled.state === 'answered') return answered(settled.answer);
    if (settled !== 'aborted' && settled.state === 'cancelled')
      throw cancelledWhile('while it waited for an answer');
    // Out of time: an answer accepted since the last read still counts (removal and answer are atomic).
    const late = await close();
    if (late) return answered(late);
    throw timedOut();
  } finally {
    await close();
  }
}

/** The asker of one call that can ask mid-call. */
export function midCallAsker(setup: MidCallSetup): Asker {
  let turn: Promise<unknown> = Promise.resolve();
  return {
    ask(request, call) {
      const mine = turn.then(() => askOnce(setup, request, call));
      turn = mine.catch(() => undefined);
      return mine;
    },
  };
}
