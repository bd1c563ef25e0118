/**
 * The arrivals of an open-model run: phases of a rate (steady, or ramping linearly from one rate to another), and
 * the intended start of every request they hold. A request's start follows from its index alone, measured from the
 * start of the load, so the sender never accumulates drift and a late sender catches up instead of sliding the
 * whole schedule.
 */

/** One phase: `rate` requests per second for `durationS` seconds, ramping linearly to `rampTo` when given. */
export interface Phase {
  rate: number;
  rampTo?: number;
  durationS: number;
}

/** The open model of a run: its phases, and how many requests may wait for an answer at once. */
export interface OpenPlan {
  phases: Phase[];
  /** Requests in flight at most; a request due while this many wait is not sent, and counted as such. */
  maxInFlight: number;
}

/** The requests a phase holds, as a real number: the area under its rate. */
const expected = (phase: Phase) => ((phase.rate + (phase.rampTo ?? phase.rate)) / 2) * phase.durationS;

/**
 * Seconds into a phase at which its `j`-th request (from 0) is due: the time where the area under the rate
 * reaches j. With a rate r(t) = r0 + k·t the area is r0·t + k·t²/2; this form of the root stays exact when k is 0
 * and when r0 is 0.
 */
function offsetS(phase: Phase, j: number): number {
  if (j === 0) return 0;
  const r0 = phase.rate;
  const k = ((phase.rampTo ?? r0) - r0) / phase.durationS;
  // A ramp down to 0 ends where the root's argument reaches 0; rounding may take it a hair below.
  return (2 * j) / (r0 + Math.sqrt(Math.max(0, r0 * r0 + 2 * k * j)));
}

/** The intended start of every request of a plan, in milliseconds since the start of the load. */
export class Schedule {
  /** Requests the phases hold (at most `limit` when one is given). */
  readonly count: number;
  /** Seconds the phases last. */
  readonly durationS: number;
  /** Each phase's start (s) and the requests before it (a real number), for `dueMs`. */
  private readonly starts: { phase: Phase; atS: number; before: number }[] = [];

  constructor(phases: readonly Phase[], limit?: number) {
    let atS = 0;
    let before = 0;
    for (const phase of phases) {
      this.starts.push({ phase, atS, before });
      atS += phase.durationS;
      before += expected(phase);
    }
    this.durationS = atS;
    // Request i is due when the area reaches i, so the phases hold every i below their whole area. The epsilon
    // keeps a whole area (50 req/s for 10 s: 500) from gaining a request from a rounding error.
    const held = Math.max(0, Math.ceil(before - 1e-9));
    this.count = limit === undefined ? held : Math.min(held, limit);
  }

  /** Milliseconds after the start of the load at which request `i` (from 0) is due. */
  dueMs(i: number): number {
    // The last phase that starts at or before request i: a phase with no requests (a pause at rate 0) starts at
    // the same count as its successor, so it is passed over.
    let k = this.starts.length - 1;
    while (k > 0 && this.starts[k]!.before > i) k--;
    const { phase, atS, before } = this.starts[k]!;
    return (atS + Math.min(offsetS(phase, i - before), phase.durationS)) * 1000;
  }

  /** The requests per second the plan offers, on average over its phases. */
  get offeredRate(): number {
    return this.durationS > 0 ? this.count / this.durationS : 0;
  }
}

/** A phase list as the command line and the reports write it: "50x10", "10-100x30,100x60". */
export const formatPhases = (phases: readonly Phase[]): string =>
  phases.map((p) => `${p.rate}${p.rampTo !== undefined ? `-${p.rampTo}` : ''}x${p.durationS}`).join(',');

/** A phase list in words, for the reports: "50 req/s for 10 s", "10 → 100 req/s over 30 s, then …". */
export const describePhases = (phases: readonly Phase[]): string =>
  phases
    .map((p) =>
      p.rampTo !== undefined && p.rampTo !== p.rate
        ? `${p.rate} → ${p.rampTo} req/s over ${p.durationS} s`
        : `${p.rate} req/s for ${p.durationS} s`,
    )
    .join(', then ');
