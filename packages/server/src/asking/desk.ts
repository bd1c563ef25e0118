import { errorFields, type Logger } from '../log.ts';
import { clientText } from '../protocol/client-text.ts';
import { MAX_JSON_DEPTH } from '../limits.ts';
import { isJsonObject, nestsDeeperThan } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { Session } from '../sessions/session-id.ts';
import { parseWireId } from './ask-ids.ts';
import { callerOf, slotOf } from '../call-state/ids.ts';
import type { Answer, CallState, Refusal } from '../call-state/stores.ts';
import { wake } from '../call-state/waiting.ts';

/**
 * The answer desk: where a client's answers to mid-call questions (JSON-RPC responses POSTed to the endpoint) and
 * its cancellations of its calls are written into the call state, bound to the session (and the authenticated
 * caller) they come from. An answer that cannot be matched with a waiting question of that caller is refused and
 * logged, and changes nothing: an unknown id, a replay, a late answer, another caller's. So is a malformed or
 * repeated cancellation.
 */

/** Who sent the answer. */
export interface AnswerSender {
  session: Session;
  /** The authenticated caller's client key (`Principal.clientKey`), when authorization is on. */
  principal?: string;
}

/** What became of a delivery: written, refused (nothing waits for it from this caller), or the store failed. */
export type Delivery = 'accepted' | 'refused' | 'failed';

/**
 * Largest answer kept whole, in UTF-8 bytes as the store keeps it (a DynamoDB item holds 400 KB); a larger one
 * reaches the call as a failure instead of failing the write (a 503 the client would retry for nothing).
 */
const MAX_ANSWER_BYTES = 256 * 1024;
/** Most characters of a client's error message kept for the tool. */
const MAX_ERROR_CHARS = 512;

/** The answer as the waiting call will see it. */
export function answerOf(message: JSONObject): Answer {
  // Measured by serializing, which overflows the stack on JSON thousands of levels deep: the transport refuses
  // such a body, and an answer handed in otherwise fails its call here instead of failing the write.
  if (nestsDeeperThan(message, MAX_JSON_DEPTH))
    return { failure: `it nested more than ${MAX_JSON_DEPTH} levels deep` };
  if (Buffer.byteLength(JSON.stringify(message)) > MAX_ANSWER_BYTES)
    return { failure: 'it was larger than 256 KB' };
  if (isJsonObject(message.error)) {
    const { code, message: text } = message.error;
    return {
      error: {
        code: typeof code === 'number' ? code : 0,
        message: clientText(typeof text === 'string' ? text : '(no message)', MAX_ERROR_CHARS),
      },
    };
  }
  return isJsonObject(message.result)
    ? { result: message.result }
    : { failure: 'its result is not an object' };
}

/** The desk of one call state. Every write is bounded by `signal` (the invocation's deadline). */
export function answerDesk(callState: Pick<CallState, 'questions' | 'cancellations'>) {
  const refused = (log: Logger, what: string, reason: Refusal) => {
    log.warn(`${what} refused`, { reason });
    return 'refused' as const;
  };
  return {
    /** Writes a client's answer into the question it answers. */
    async deliver(
      message: JSONObject,
      from: AnswerSender,
      log: Logger,
      signal?: AbortSignal,
    ): Promise<Delivery> {
      const id = parseWireId(message.id);
      if (!id) return refused(log, 'answer', 'unknown');
      const caller = callerOf(from.session.id, from.principal);
      try {
        const outcome = await callState.questions.answer(
          { ...id, caller, answer: answerOf(message), now: Date.now() },
          signal,
        );
        if (outcome !== true) return refused(log, 'answer', outcome);
      } catch (error) {
        log.error('call state write failed: an answer was not recorded', { error: errorFields(error) });
        return 'failed';
      }
      wake(id.slot);
      return 'accepted';
    },
    /**
     * Records the client's cancellation of one of its calls (`notifications/cancelled`), whether or not the call
     * waits for an answer: a waiting question settles, and the running call's watch (cancel-watch.ts) sees it.
     */
    async cancel(
      requestId: unknown,
      from: AnswerSender,
      log: Logger,
      signal?: AbortSignal,
    ): Promise<Delivery> {
      if (typeof requestId !== 'string' && typeof requestId !== 'number')
        return refused(log, 'cancellation', 'unknown');
      const caller = callerOf(from.session.id, from.principal);
      const slot = slotOf(caller, requestId);
      try {
        const outcome = await callState.cancellations.cancel({ slot, caller, now: Date.now() }, signal);
        if (outcome !== true) return refused(log, 'cancellation', outcome);
      } catch (error) {
        log.error('call state write failed: a cancellation was not recorded', { error: errorFields(error) });
        return 'failed';
      }
      wake(slot);
      return 'accepted';
    },
  };
}

/** The answer desk of a call state. */
export type AnswerDesk = ReturnType<typeof answerDesk>;
