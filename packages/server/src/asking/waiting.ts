import { errorFields, type Logger } from '../log.ts';
import type { PolledCallState, Settled } from '../call-state/stores.ts';
import { pause } from '../call-state/waiting.ts';

/**
 * Waiting for an answer: read the store every `pollIntervalMs` until the question settles or the signal fires; an
 * answer delivered by this same process wakes the wait at once (call-state/waiting.ts). A failed read (a throttled
 * table) is logged and tried again at the next tick: the wait ends only with an outcome or the signal.
 */

/** How a wait went: the question's outcome, or `aborted` when the signal fired first. Counts its reads. */
export interface WaitOutcome {
  settled: Settled | 'aborted';
  reads: number;
}

/** Waits for the question `slot`/`askId` to settle, reading the store at most every `pollIntervalMs`. */
export async function waitForAnswer(
  callState: Pick<PolledCallState, 'questions' | 'pollIntervalMs'>,
  slot: string,
  askId: string,
  signal: AbortSignal,
  log: Logger,
): Promise<WaitOutcome> {
  let reads = 0;
  while (!signal.aborted) {
    try {
      reads++;
      const settled = await callState.questions.read({ slot, askId, now: Date.now() }, signal);
      if (settled) return { settled, reads };
    } catch (error) {
      if (signal.aborted) break;
      log.warn('call state read failed; reading again', { error: errorFields(error) });
    }
    await pause(slot, callState.pollIntervalMs, signal);
  }
  return { settled: 'aborted', reads };
}
