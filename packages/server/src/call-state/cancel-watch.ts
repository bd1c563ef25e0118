import { anySignal, deadlineSignal } from '../deadline.ts';
import { errorFields, type Logger } from '../log.ts';
import type { CancellationStore } from './stores.ts';
import { pause } from './waiting.ts';

/**
 * The watch of a running call for its client's cancellation (handshake era, streaming API). Each instance serves one
 * request at a time, so the client's `notifications/cancelled` (a POST of its own) lands on another instance, which
 * records it in the call's slot of the call state (asking/desk.ts). The call reads its slot while it runs and, once
 * it sees the cancellation, aborts as if the client were on this instance. A cancellation received by this same
 * process wakes the watch at once.
 */

/** Why a call the watch stopped was cancelled: the tool's `isError` and its signal say so. */
export const CLIENT_CANCELLED = 'the client cancelled the request (notifications/cancelled)';

/**
 * Reads are this far apart at least. Nobody waits for a cancelled call's answer (the client no longer expects one),
 * so a read a second bounds only the work done in vain, at a quarter of the reads of a waiting question.
 */
export const CANCEL_WATCH_MIN_INTERVAL_MS = 1_000;

/** What a watch reads, and when. */
export interface CancelWatchSetup {
  store: Pick<CancellationStore, 'cancelled'>;
  /** The call's slot and its caller (ask-ids.ts). */
  slot: string;
  caller: string;
  /** The first read comes this long after the watch starts: a call that ends sooner reads nothing. */
  afterMs: number;
  intervalMs: number;
  /** The invocation's deadline (epoch ms): no read outlasts it. */
  deadline?: number;
  log: Logger;
}

/**
 * Watches the call's slot until `stop` is called or the deadline nears; calls `onCancel` once, with the reason, when
 * the client cancelled the call. A failed read is logged once per watch and tried again at the next interval: a
 * throttled table never ends the call. Returns `stop`.
 */
export function watchCancellation(setup: CancelWatchSetup, onCancel: (reason: string) => void): () => void {
  const stopped = new AbortController();
  const { store, slot, caller, log } = setup;
  void (async () => {
    let reads = 0;
    let failures = 0;
    await pause(slot, setup.afterMs, stopped.signal);
    // The deadline's timer only for a call that reads: most end before their first read.
    const signal = anySignal(stopped.signal, deadlineSignal(setup.deadline))!;
    while (!signal.aborted) {
      try {
        reads++;
        if (await store.cancelled({ slot, caller }, signal)) {
          if (!stopped.signal.aborted) onCancel(CLIENT_CANCELLED);
          break;
        }
      } catch (error) {
        if (signal.aborted) break;
        if (failures++ === 0)
          log.warn('cancellation read failed; reading on (logged once per call)', {
            error: errorFields(error),
          });
      }
      await pause(slot, setup.intervalMs, signal);
    }
    if (reads) log.debug('cancellation watch ended', { reads, failures });
  })();
  return () => stopped.abort();
}
