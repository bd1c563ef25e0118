/** The end of one tool call: its time budget or a cancellation, whichever comes first (`registry.ts`). */

/** How one call may differ from the server's defaults (a run inside a task). */
export interface CallOptions {
  /** Ends the call early, as a cancellation (a task's `tasks/cancel`). */
  signal?: AbortSignal;
  /** Budget of a tool without its own `timeoutMs` (a task's worker gives it all its time). */
  defaultTimeoutMs?: number;
}

export const TIMED_OUT = Symbol('timed out');
export const CANCELLED = Symbol('cancelled');

/** setTimeout's largest delay; a longer (or infinite) budget sets no timer at all. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Settles when the budget runs out or the signal aborts, whichever comes first; `clear` releases both. */
export function endOf(budgetMs: number, signal: AbortSignal | undefined) {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const promise = new Promise<typeof TIMED_OUT | typeof CANCELLED>((resolve) => {
    if (budgetMs <= MAX_TIMER_MS) timer = setTimeout(() => resolve(TIMED_OUT), budgetMs);
    if (!signal) return;
    if (signal.aborted) return resolve(CANCELLED);
    onAbort = () => resolve(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    promise,
    clear() {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    },
  };
}
