/**
 * Waiting on the call state in this process: a wait (a call for its answer, a watch for its cancellation, a resumed
 * stream for its next event) sleeps between reads of the store, and a write made by this same process (one
 * instance, or the answer POST landing where the call waits) wakes it at once instead of at the next read.
 */

/** Wakes the waits of a key in this process. */
const wakers = new Map<string, Set<() => void>>();

/** Wakes every wait of this key (a call's slot, a stream's log) in this process. */
export function wake(key: string): void {
  for (const waker of wakers.get(key) ?? []) waker();
}

/** Sleeps `ms`, or less when the key is woken or the signal fires (or has fired: an abort event never repeats). */
export function pause(key: string, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      const set = wakers.get(key);
      set?.delete(done);
      if (set?.size === 0) wakers.delete(key);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    if (!wakers.has(key)) wakers.set(key, new Set());
    wakers.get(key)!.add(done);
  });
}
