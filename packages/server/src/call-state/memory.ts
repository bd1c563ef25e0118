import { memoryStreamLog } from './memory-stream-log.ts';
import {
  CANCELLATION_LIFETIME_MS,
  type Answer,
  type CallState,
  type CancellationStore,
  type QuestionStore,
  type Refusal,
} from './stores.ts';

/** A slot: its question, if one was asked, and whether the call was cancelled. */
interface Item {
  caller: string;
  expiresAt: number;
  askId?: string;
  /** Closed questions stay (as the table's do, until its TTL) so that a close sent again hands back the answer. */
  state?: 'waiting' | 'answered' | 'closed';
  answer?: Answer;
  cancelled?: boolean;
}

/** Why an answer finds nothing to answer in this item, or undefined when it does. */
function refusal(item: Item | undefined, caller: string, now: number, askId: string): Refusal | undefined {
  if (!item || item.askId !== askId) return 'unknown';
  if (item.caller !== caller) return 'other-caller';
  if (item.expiresAt <= now) return 'expired';
  return item.state === 'waiting' && !item.cancelled ? undefined : 'settled';
}

/** Questions in this process's memory, in the slots they share with the cancellations. */
function memoryQuestions(items: Map<string, Item>, sweep: (now: number) => void): QuestionStore {
  return {
    async open(question) {
      if (items.get(question.slot)?.cancelled) return false;
      sweep(Date.now());
      const { slot: _slot, ...recorded } = question;
      items.set(question.slot, { ...recorded, state: 'waiting' });
      return true;
    },
    async answer({ slot, askId, caller, answer, now }) {
      const item = items.get(slot);
      const refused = refusal(item, caller, now, askId);
      if (refused) return refused;
      Object.assign(item!, { state: 'answered', answer });
      return true;
    },
    async read({ slot, askId, now }) {
      const item = items.get(slot);
      if (!item || item.askId !== askId || !item.state || item.state === 'closed') return { state: 'gone' };
      if (item.state === 'answered') return { state: 'answered', answer: item.answer! };
      if (item.cancelled) return { state: 'cancelled' };
      return item.expiresAt <= now ? { state: 'gone' } : undefined;
    },
    async close({ slot, askId }) {
      const item = items.get(slot);
      if (!item?.state || item.askId !== askId) return undefined;
      // Closed, not deleted: a close sent again finds the answer it held (expired items are swept).
      item.state = 'closed';
      return item.answer;
    },
  };
}

/** Cancellations in this process's memory, in the slots they share with the questions. */
function memoryCancellations(items: Map<string, Item>, sweep: (now: number) => void): CancellationStore {
  return {
    async cancel({ slot, caller, now }) {
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
    async cancelled({ slot, caller }) {
      const item = items.get(slot);
      return item?.caller === caller && item.cancelled === true;
    },
  };
}

/** The call state in this process's memory (stand-ins.ts `memoryCallState` is the public stand-in). */
export function memoryCallStateStores(): CallState {
  const items = new Map<string, Item>();
  // Items outlive their calls (a cancellation, a closed question): swept when expired, as the table's TTL deletes them.
  const sweep = (now: number) => {
    for (const [slot, item] of items) if (item.expiresAt <= now) items.delete(slot);
  };
  return {
    questions: memoryQuestions(items, sweep),
    cancellations: memoryCancellations(items, sweep),
    streamLog: memoryStreamLog(),
  };
}
