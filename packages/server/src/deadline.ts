import { Defaults } from './limits.ts';

/**
 * Deadlines of outbound calls. An invocation that waits on a storage or network call past its deadline is stopped
 * by the platform, and the client gets a gateway error instead of an honest answer. So every outbound call
 * (storage reads and writes, the companion function, the issuer's metadata and keys, the task table and the task
 * worker's start, the bridge's table, key and secrets) gets a signal that fires a margin before the invocation's
 * deadline; the caller then still has time to answer `isError`, -32603 or 503.
 */

/**
 * A signal that aborts `marginMs` before `deadline` (epoch ms); undefined when there is no deadline. Created only
 * where an outbound call is about to happen: each one sets a timer, which the hot path should not pay for.
 */
export function deadlineSignal(
  deadline: number | undefined,
  marginMs: number = Defaults.answerMarginMs,
): AbortSignal | undefined {
  if (deadline === undefined) return undefined;
  const ms = Math.floor(deadline - Date.now() - marginMs);
  // Already out of time: abort at once, so no call even starts.
  return ms > 0
    ? AbortSignal.timeout(ms)
    : AbortSignal.abort(new DOMException('The invocation deadline is too close', 'TimeoutError'));
}

/** A signal that fires when any of the given ones does (the absent ones are ignored). */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length <= 1 ? present[0] : AbortSignal.any(present);
}

/**
 * Waits for `work` unless `signal` fires first; then rejects with the signal's reason. The work itself goes on
 * (it may be shared, like one key-set fetch that several requests wait for); only this caller stops waiting.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
