import { Platform } from '../limits.ts';
import type { JSONObject } from '../protocol/types.ts';
import { memoryEventLog, type EventLog } from '../resume/event-log.ts';

/**
 * The rendezvous of a question and its answer (handshake era, streaming API). The call that asks waits on one
 * instance; the client's answer is a new POST that may land on any other. So the question is recorded first, bound
 * to the caller and to an unguessable id; the answer is written to it only if it is still waiting, for that id and
 * that caller (a conditional write: a replay, a late answer or another caller's finds nothing to answer); the
 * waiting call reads it back. The client's cancellation of a call is recorded in the same slot, whether or not a
 * question waits there, so the running call sees it on any instance (cancel-watch.ts). Items expire: the store's
 * TTL removes what a crash left behind.
 */

/**
 * How long a cancellation recorded without a question is kept: the longest a call can run (a streaming function's
 * time limit), so it outlives any call it can name.
 */
export const CANCELLATION_LIFETIME_MS = Platform.restStreamingMaxSeconds * 1000;

/** A question waiting for its answer. */
interface WaitingQuestion {
  /** The call's slot: a digest of the caller and the call's JSON-RPC id (one question at a time per call). */
  slot: string;
  /** The question's unguessable part of its JSON-RPC id. */
  askId: string;
  /** Digest of the session and the authenticated caller the question was asked of. */
  caller: string;
  /** Epoch ms after which no answer is taken. */
  expiresAt: number;
}

/** What the client sent back: its result, its JSON-RPC error, or why its answer could not be used. */
export type Answer =
  { result: JSONObject } | { error: { code: number; message: string } } | { failure: string };

/** What became of a question that no longer waits. */
export type Settled = { state: 'answered'; answer: Answer } | { state: 'cancelled' } | { state: 'gone' };

/** Why an answer or a cancellation was refused (for the log; the client is told the same thing for each). */
export type Refusal = 'unknown' | 'other-caller' | 'settled' | 'expired';

/**
 * Where questions wait, and where the events of cut streams wait for their client (resume/event-log.ts). Each call
 * takes the signal that bounds it (the invocation's deadline, the tool's budget).
 */
export interface RendezvousStore extends EventLog {
  /** Records a question; false, recording nothing, when the client has cancelled its call already. */
  open(question: WaitingQuestion, signal?: AbortSignal): Promise<boolean>;
  /** Records the answer if the question waits for it from this caller; else why not. */
  answer(
    slot: string,
    askId: string,
    caller: string,
    answer: Answer,
    now: number,
    signal?: AbortSignal,
  ): Promise<true | Refusal>;
  /**
   * Records the client's cancellation of a call (`notifications/cancelled`) in its slot, question or not: a waiting
   * question settles as cancelled, a later one is not asked, an answer already given stays. Refused (`settled`)
   * when the call is cancelled already, or when the slot holds another caller's question.
   */
  cancel(slot: string, caller: string, now: number, signal?: AbortSignal): Promise<true | Refusal>;
  /** Whether this caller has cancelled the call of this slot (a strongly consistent read). */
  cancelled(slot: string, caller: string, signal?: AbortSignal): Promise<boolean>;
  /** The question's outcome, or undefined while it still waits. */
  read(slot: string, askId: string, now: number, signal?: AbortSignal): Promise<Settled | undefined>;
  /**
   * Removes or closes the question (answered, given up): a later answer then finds nothing to answer. Settles with
   * the answer it held when closed, if any: closing and an answer being written are atomic, so exactly one of them
   * wins; closing again hands back the same answer.
   */
  close(slot: string, askId: string, signal?: AbortSignal): Promise<Answer | undefined>;
}

/** A store and how often a waiting call reads it. */
export interface Rendezvous {
  store: RendezvousStore;
  /** Reads of a waiting call are this far apart (an answer delivered by this same process wakes it at once). */
  pollIntervalMs: number;
}

/** A slot: its question, if one was asked, and whether the call was cancelled. */
interface Item {
  caller: string;
  expiresAt: number;
  askId?: string;
  state?: 'waiting' | 'answered';
  answer?: Answer;
  cancelled?: boolean;
}

/** Questions in this process's memory (stores.ts `memoryRendezvous` is the public stand-in). */
export function memoryRendezvous(): RendezvousStore {
  const items = new Map<string, Item>();
  const refusal = (
    item: Item | undefined,
    caller: string,
    now: number,
    askId: string,
  ): Refusal | undefined => {
    if (!item || item.askId !== askId) return 'unknown';
    if (item.caller !== caller) return 'other-caller';
    if (item.expiresAt <= now) return 'expired';
    return item.state === 'waiting' && !item.cancelled ? undefined : 'settled';
  };
  // Cancellations outlive their calls: swept when expired, as the table's TTL deletes them.
  const sweep = (now: number) => {
    for (const [slot, item] of items) if (item.expiresAt <= now) items.delete(slot);
  };
  return {
    ...memoryEventLog(),
    async open(question) {
      if (items.get(question.slot)?.cancelled) return false;
      const { slot: _slot, ...recorded } = question;
      items.set(question.slot, { ...recorded, state: 'waiting' });
      return true;
    },
    async answer(slot, askId, caller, answer, now) {
      const item = items.get(slot);
      const refused = refusal(item, caller, now, askId);
      if (refused) return refused;
      Object.assign(item!, { state: 'answered', answer });
      return true;
    },
    async cancel(slot, caller, now) {
      const item = items.get(slot);
      if (item && item.caller !== caller) return 'other-caller';
      if (item?.cancelled) return 'settled';
      if (item) item.cancelled = true;
      else {
        sweep(now);
        items.set(slot, { caller, expiresAt: now + CANCELLATION_LIFETIME_MS, cancelled: true });
      }
      return true;
    },
    async cancelled(slot, caller) {
      const item = items.get(slot);
      return item?.caller === caller && item.cancelled === true;
    },
    async read(slot, askId, now) {
      const item = items.get(slot);
      if (!item || item.askId !== askId || !item.state) return { state: 'gone' };
      if (item.state === 'answered') return { state: 'answered', answer: item.answer! };
      if (item.cancelled) return { state: 'cancelled' };
      return item.expiresAt <= now ? { state: 'gone' } : undefined;
    },
    async close(slot, askId) {
      const item = items.get(slot);
      if (!item?.state || item.askId !== askId) return undefined;
      const held = item.state === 'answered' ? item.answer : undefined;
      // A cancellation stays for the call's watch; a question alone goes.
      if (!item.cancelled) items.delete(slot);
      delete item.state;
      delete item.answer;
      return held;
    },
  };
}
