import type { ToolContext } from './define.ts';
import { ToolError } from './tool-error.ts';
import type { StreamSink } from './streamed.ts';
import { monotonicMs } from '../clock.ts';

/**
 * The end of one tool call: its time budget or a cancellation, whichever comes first (`registry.ts` runs calls with
 * it). An `await` lets the budget's timer stop a waiting tool, but a synchronous loop holds the only thread: no timer
 * can fire until it returns. So a tool that computes in a loop calls `await ctx.checkpoint()` now and then (README
 * "Add a tool"): it yields to the event loop at most every few ms, so timers and other requests run, and it throws
 * once the budget is spent, which ends the tool there.
 */

/** Thrown by `ctx.checkpoint()` once the budget is spent; the registry answers `isError` saying so. */
export class BudgetExhaustedError extends ToolError {
  constructor() {
    super('The tool ran out of its time budget.');
    this.name = 'BudgetExhaustedError';
  }
}

/** How one call may differ from the server's defaults: a run inside a task, a request on a stream. */
export interface CallOptions {
  /**
   * Cancels the call when it aborts: a task's `tasks/cancel`, or a client that closed its response stream. The
   * tool's signal fires and the call ends at once with an `isError` saying it was cancelled.
   */
  signal?: AbortSignal;
  /** Why `signal` cancels the call, for that `isError` and the tool's signal (`the client closed the connection`). */
  cancelReason?: string;
  /** Budget of a tool without its own `timeoutMs` (a task's worker gives it all its time). */
  defaultTimeoutMs?: number;
  /**
   * Where streamed outputs go, read within the call's budget: the offloader's sink stores them in parts as they are
   * produced. Default: collected inline, up to what one response carries.
   */
  streams?: StreamSink;
}

/** How a call ended when it did not settle by itself. */
export const TIMED_OUT = Symbol('timed out');
export const CANCELLED = Symbol('cancelled');

/** A checkpoint yields at most this often: timers stay punctual, and a tight loop loses well under 1% to it. */
const YIELD_EVERY_MS = 4;

/** setTimeout's largest delay; a longer (or infinite) budget sets no timer at all. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The clock of one call's budget, its cooperative checkpoint, and the race of the budget against a cancellation. */
export class CallBudget {
  private readonly started = monotonicMs();
  private lastYield = this.started;

  constructor(readonly ms: number) {}

  /** Milliseconds since the call started. */
  elapsed(): number {
    return monotonicMs() - this.started;
  }

  /** Whether the call has run past its budget (so a result now would be late). */
  spent(): boolean {
    return this.elapsed() > this.ms;
  }

  /**
   * Cheap when called often: it only reads the clock, yields to the event loop when a few ms have passed since the
   * last yield, and throws BudgetExhaustedError once the budget is spent.
   */
  readonly checkpoint = async (): Promise<void> => {
    if (this.spent()) throw new BudgetExhaustedError();
    if (monotonicMs() - this.lastYield < YIELD_EVERY_MS) return;
    await nextTurn();
    this.lastYield = monotonicMs();
    if (this.spent()) throw new BudgetExhaustedError();
  };

  /** Settles when the budget runs out or `signal` aborts, whichever comes first; `clear` releases both. */
  end(signal: AbortSignal | undefined) {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const left = this.ms - this.elapsed();
    const promise = new Promise<typeof TIMED_OUT | typeof CANCELLED>((resolve) => {
      if (left <= MAX_TIMER_MS) timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, left));
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
}

/** A handler or a `task.prepare` step. */
export type Handler = (args: any, ctx: ToolContext) => unknown;

/**
 * Runs `fn` until it settles, its budget runs out (`TIMED_OUT`) or `options.signal` aborts (`CANCELLED`); in the
 * last two cases the tool's signal fires with the reason, and its checkpoint throws it. The budget's timer stops a
 * tool that waits, `ctx.checkpoint()` one that computes, and a result that arrives after the budget anyway is late,
 * so it counts as timed out too.
 */
export async function runWithin(
  fn: Handler,
  input: unknown,
  ctx: Omit<ToolContext, 'signal' | 'checkpoint'>,
  budget: CallBudget,
  options: CallOptions,
): Promise<unknown> {
  if (options.signal?.aborted) return CANCELLED;
  // Most tools never look at their signal: create the controller only when one does.
  let controller: AbortController | undefined;
  let stopped: Error | undefined;
  const stop = (reason: Error) => {
    stopped ??= reason;
    controller?.abort(stopped);
  };
  // A checkpoint also ends a tool whose call was already given up (cancelled or out of time).
  const checkpoint = async () => {
    if (stopped) throw stopped;
    await budget.checkpoint();
  };
  const toolCtx = Object.defineProperty({ ...ctx, checkpoint } as ToolContext, 'signal', {
    get: () => {
      if (!controller) {
        controller = new AbortController();
        if (stopped) controller.abort(stopped);
      }
      return controller.signal;
    },
    enumerable: true,
  });
  const ended = budget.end(options.signal);
  try {
    const outcome = await Promise.race([Promise.resolve().then(() => fn(input, toolCtx)), ended.promise]);
    if (outcome === CANCELLED) {
      const reason = options.cancelReason;
      stop(new Error(reason ? `cancelled: ${reason}` : 'cancelled'));
      return CANCELLED;
    }
    if (outcome !== TIMED_OUT && !budget.spent()) return outcome;
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
  } finally {
    ended.clear();
  }
  stop(new Error('time budget exhausted'));
  return TIMED_OUT;
}
