import type { Logger } from '../log.ts';
import { errorFields } from '../log.ts';
import type { Rendezvous, Settled } from './rendezvous.ts';

/**
 * Waiting for an answer: read the store every `pollIntervalMs` until the question settles or the signal fires.
 * An answer delivered by this same process (one instance, or the answer POST landing where the call waits) wakes
 * the wait at once instead of at the next read. A failed read (a throttled table) is logged and tried again at
 * the next tick: the wait ends only with an outcome or the signal.
 */

/** Wakes the waits of a slot in this process (the answer desk calls it after writing an answer). */
const wakers = new Map<string, Set<() => void>>();

/** Wakes every wait of this slot in this process. */
export function wake(slot: string): void {
  for (const waker of wakers.get(slot) ?? []) waker();
}

/** Sleeps `ms`, or less when the slot is woken or the signal fires (or has fired: an abort event never repeats). */
export function pause(slot: string, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      const set = wakers.get(slot);
      set?.delete(done);
      if (set?.size === 0) wakers.delete(slot);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    if (!wakers.has(slot)) wakers.set(slot, new Set());
    wakers.get(slot)!.add(done);
  });
}

/** How a wait went: the question's outcome, or `aborted` when the signal fired first. Counts its reads. */
export interface WaitOutcome {
  settled: Settled | 'aborted';
  reads: number;
}

/** Waits for the question `slot`/`askId` to settle, reading the store at most every `pollIntervalMs`. */
export async function waitForAnswer(
  rendezvous: Rendezvous,
  slot: string,
  askId: string,
  signal: AbortSignal,
  log: Logger,
): Promise<WaitOutcome> {
  let reads = 0;
  while (!signal.aborted) {
    try {
      reads++;
      const settled = await rendezvous.store.read(slot, askId, Date.now(), signal);
      if (settled) return { settled, reads };
    } catch (error) {
      if (signal.aborted) break;
      log.warn('rendezvous read failed; reading again', { error: errorFields(error) });
    }
    await pause(slot, rendezvous.pollIntervalMs, signal);
  }
  return { settled: 'aborted', reads };
}
