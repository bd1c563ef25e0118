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
  state?: 'waiting' | 'answered';
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
function memoryQuestions(items: Map<string, Item>): QuestionStore {
  return {
    async open(question) {
      if (items.get(question.slot)?.cancelled) return false;
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
      if (!item || item.askId !== askId || !item.state) return { state: 'gone' };
      if (item.state === 'answered') return { state: 'answered', answer: item.answer! };
      if (item.cancelled) return { state: 'cancelled' };
      return item.expiresAt <= now ? { state: 'gone' } : undefined;
    },
    async close({ slot, askId }) {
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

/** Cancellations in this process's memory, in the slots they share with the questions. */
function memoryCancellations(items: Map<string, Item>): CancellationStore {
  // Cancellations outlive their calls: swept when expired, as the table's TTL deletes them.
  const sweep = (now: number) => {
    for (const [slot, item] of items) if (item.expiresAt <= now) items.delete(slot);
  };
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
  return {
    questions: memoryQuestions(items),
    cancellations: memoryCancellations(items),
    streamLog: memoryStreamLog(),
  };
}
