/**
 * How a scenario's load picks and repeats its flows, whatever engine starts them: flows picked in proportion to
 * their weights, interleaved (smooth weighted round-robin), so a run's mix is exact, not a draw; and the closed
 * model's clients, each starting its next flow run when its last one ended. `npm run load -- --scenario` runs them
 * (run.ts), and so does each worker of the Artillery test it emits (../artillery/processor.ts).
 */
import { runFlow, type RunContext } from './flows.ts';

/** Picks flows by weight: each weight's share of the picks, spread evenly over them. */
export class FlowPicker {
  private readonly current: number[];
  private readonly total: number;

  constructor(private readonly weights: readonly number[]) {
    this.current = weights.map(() => 0);
    this.total = weights.reduce((sum, w) => sum + w, 0);
  }

  next(): number {
    let best = 0;
    for (let i = 0; i < this.weights.length; i++) {
      this.current[i]! += this.weights[i]!;
      if (this.current[i]! > this.current[best]!) best = i;
    }
    this.current[best]! -= this.total;
    return best;
  }
}

/** When the closed model stops: after `amount` flow runs started, else once `durationS` has passed. */
export interface ClosedEnd {
  amount?: number;
  durationS: number;
}

/**
 * The closed model's loop: any number of clients share it, each running flows one after another until `amount`
 * runs have started or `durationS` has passed on the recording's clock (or the load is stopped).
 */
export class ClosedLoop {
  /** Flow runs started, which numbers each run. */
  private started = 0;

  constructor(
    private readonly end: ClosedEnd,
    private readonly context: RunContext,
    private readonly picker: FlowPicker,
  ) {}

  private more(): boolean {
    if (this.context.signal?.aborted) return false;
    return this.end.amount !== undefined
      ? this.started < this.end.amount
      : this.context.recording.now() < this.end.durationS * 1000;
  }

  /** One client: its flow runs, one after another, while the loop goes on. */
  async client(): Promise<void> {
    while (this.more()) await runFlow(this.context, this.picker.next(), this.started++);
  }
}
