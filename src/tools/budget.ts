import { ToolError } from './define.ts';

/**
 * The time budget of one tool call. An `await` lets the budget's timer stop a waiting tool, but a synchronous loop
 * holds the only thread: no timer can fire until it returns. So a tool that computes in a loop calls
 * `await ctx.checkpoint()` now and then (README "Add a tool"): it yields to the event loop at most every few ms,
 * so timers and other requests run, and it throws once the budget is spent, which ends the tool there.
 */

/** Thrown by `ctx.checkpoint()` once the budget is spent; the registry answers `isError` saying so. */
export class BudgetExhaustedError extends ToolError {
  constructor() {
    super('The tool ran out of its time budget.');
    this.name = 'BudgetExhaustedError';
  }
}

/** A checkpoint yields at most this often: timers stay punctual, and a tight loop loses well under 1% to it. */
const YIELD_EVERY_MS = 4;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The clock of one call's budget, and its cooperative checkpoint. */
export class CallBudget {
  private readonly started = performance.now();
  private lastYield = this.started;

  constructor(readonly ms: number) {}

  /** Milliseconds since the call started. */
  elapsed(): number {
    return performance.now() - this.started;
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
    if (performance.now() - this.lastYield < YIELD_EVERY_MS) return;
    await nextTurn();
    this.lastYield = performance.now();
    if (this.spent()) throw new BudgetExhaustedError();
  };
}
