import { askingMethods } from '../asking/lazy.ts';
import type { Asker } from '../contracts/asking.ts';
import { InputRequired } from '../input/input-required.ts';
import type { ResourceLink } from '../protocol/types.ts';
import type { StoreRequest, ToolContext } from '../contracts/tool-context.ts';
import { ToolError } from '../contracts/tool-error.ts';
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
class BudgetExhaustedError extends ToolError {
  constructor() {
    super('The tool ran out of its time budget.');
    this.name = 'BudgetExhaustedError';
  }
}

/** How one call may differ from the server's defaults: a run inside a task, a request on a stream. */
export interface CallOptions {
  /**
   * Cancels the call when it aborts: a task's `tasks/cancel`, a client that closed its response stream, or one that
   * sent `notifications/cancelled`. The tool's signal fires and the call ends at once with an `isError` saying it
   * was cancelled.
   */
  signal?: AbortSignal;
  /**
   * Why `signal` cancels the call, for that `isError` and the tool's signal (`the client closed the connection`),
   * unless the signal's own reason is a string.
   */
  cancelReason?: string;
  /** Budget of a tool without its own `timeoutMs` (a task's worker gives it all its time). */
  defaultTimeoutMs?: number;
  /**
   * Where streamed outputs go, read within the call's budget: the offloader's sink stores them in parts as they are
   * produced. Default: collected inline, up to what one response carries.
   */
  streams?: StreamSink;
  /**
   * After the budget runs out while a streamed output is being stored, how long the store may take to stop and say
   * why (storage that never answered), so the answer names what failed rather than the budget. Default 0.
   */
  storeGraceMs?: number;
}

/**
 * After the budget runs out, how long any call may take to end with its own `ToolError` once its signal fired: a
 * tool waiting on a call that takes the signal (read_output's companion invoke) then says what it waited for.
 */
const STOP_GRACE_MS = 100;

/**
 * Why the call was cancelled: the reason its signal was aborted with when that is words (a client's
 * `notifications/cancelled` seen by the call's watch), else `cancelReason`.
 */
export const cancelReasonOf = (options: CallOptions): string | undefined =>
  typeof options.signal?.reason === 'string' ? options.signal.reason : options.cancelReason;

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

/**
 * Everything a call needs besides what the registry owns (its budget's signal and checkpoint) and the asking
 * methods built on `asker` (how this request's questions travel; none: every ask is refused as unavailable); its
 * `store` also takes the signal that stops it (the call's own, passed by `runWithin`).
 */
export type CallContext = Omit<
  ToolContext,
  'signal' | 'checkpoint' | 'elicit' | 'sample' | 'roots' | 'store'
> & {
  asker?: Asker;
  store(request: StoreRequest, signal?: AbortSignal): Promise<ResourceLink>;
};

/** A handler or a `task.prepare` step. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the arguments of any tool, already validated against its schema
export type Handler = (args: any, ctx: ToolContext) => unknown;

/**
 * Where a call's streamed outputs go (`inline` without a store), and how long its end waits to hear why it stopped:
 * `storeGraceMs` once an output is being stored, else `STOP_GRACE_MS`.
 */
export function callStreams(options: CallOptions, inline: () => StreamSink) {
  const { streams } = options;
  let storing = false;
  const sink: StreamSink = streams
    ? (content, signal) => ((storing = true), streams(content, signal))
    : inline();
  return {
    sink,
    grace: () => (storing ? (options.storeGraceMs ?? 0) : STOP_GRACE_MS),
    /** `ctx.store()` stores too: its call then waits as long to hear why it stopped. */
    stored: () => void (storing = true),
  };
}

/**
 * The `ToolError` a stopped call ends with within `ms` (its own account of what it was waiting on), if any; the
 * budget's own error does not count.
 */
async function stoppedBecause(running: Promise<unknown>, ms: number): Promise<ToolError | undefined> {
  if (ms <= 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const why = running.then(
    () => undefined,
    (error: unknown) =>
      error instanceof ToolError && !(error instanceof BudgetExhaustedError) ? error : undefined,
  );
  const waited = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([why, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `fn` until it settles, its budget runs out (`TIMED_OUT`) or `options.signal` aborts (`CANCELLED`); in the
 * last two cases the tool's signal fires with the reason, and its checkpoint throws it. The budget's timer stops a
 * tool that waits, `ctx.checkpoint()` one that computes, and a result that arrives after the budget anyway is late,
 * so it counts as timed out too; a call that then ends within `grace.ms()` with its own `ToolError` throws it, since
 * it says what failed (storage that never answered) better than the budget can.
 */
export async function runWithin(
  fn: Handler,
  input: unknown,
  ctx: CallContext,
  budget: CallBudget,
  options: CallOptions,
  grace: { ms: () => number; onStore?: () => void } = { ms: () => 0 },
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
  const { asker, ...rest } = ctx;
  const signal = () => {
    if (!controller) {
      controller = new AbortController();
      if (stopped) controller.abort(stopped);
    }
    return controller.signal;
  };
  const asking = askingMethods(asker, {
    get signal() {
      return signal();
    },
    remainingMs: () => budget.ms - budget.elapsed(),
  });
  // An explicit store stops with the call, so that storage that never answers is reported as such.
  const store = (request: StoreRequest) => (grace.onStore?.(), ctx.store(request, signal()));
  const toolCtx = Object.defineProperty({ ...rest, ...asking, checkpoint, store } as ToolContext, 'signal', {
    get: signal,
    enumerable: true,
  });
  const ended = budget.end(options.signal);
  const running = Promise.resolve().then(() => fn(input, toolCtx));
  try {
    // A question that must leave as the call's answer (2026-07-28) ends the call with it.
    const outcome = await Promise.race([
      running,
      ended.promise,
      ...(asker?.interrupted ? [asker.interrupted] : []),
    ]);
    if (outcome instanceof InputRequired) {
      stop(
        new DOMException(
          'the call asks the client for input and ends here; it runs again with the answer',
          'AbortError',
        ),
      );
      return outcome;
    }
    if (outcome === CANCELLED) {
      const reason = cancelReasonOf(options);
      stop(new DOMException(reason ? `cancelled: ${reason}` : 'cancelled', 'AbortError'));
      return CANCELLED;
    }
    if (outcome !== TIMED_OUT && !budget.spent()) return outcome;
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
  } finally {
    ended.clear();
  }
  stop(new DOMException('time budget exhausted', 'TimeoutError'));
  const why = await stoppedBecause(running, grace.ms());
  if (why) throw why;
  return TIMED_OUT;
}
