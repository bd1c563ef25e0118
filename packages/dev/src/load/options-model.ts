/**
 * The model options of `npm run load`: the closed loop (`--connections`, stopping after `--duration` or
 * `--amount`), or arrivals on a schedule (`--rate` with `--ramp-to`, or `--phases`; `--max-in-flight`). The two
 * models are exclusive: each option belongs to one, and giving options of both is a usage error.
 */
import { number, quote, UsageError } from './option-values.ts';
import { Schedule, type OpenPlan, type Phase } from './schedule.ts';

/** The model options as the command line gave them. */
export interface ModelValues {
  connections?: string | undefined;
  duration?: string | undefined;
  amount?: string | undefined;
  rate?: string | undefined;
  'ramp-to'?: string | undefined;
  phases?: string | undefined;
  'max-in-flight'?: string | undefined;
}

/** The model of a run: the closed loop's connections, or the open model's plan; and when it stops. */
export interface LoadModel {
  connections: number;
  durationS: number;
  amount?: number;
  open?: OpenPlan;
  /** Notes for stderr about options the command adjusted. */
  notices: string[];
}

const DEFAULT_CONNECTIONS = 10;
const DEFAULT_DURATION_S = 10;
const MAX_SECONDS = 3600;
const MAX_RATE = 100_000;
const MAX_PHASES = 100;

/** The closed loop: its connections, lowered to the amount when fewer requests are asked for (with a notice). */
function closedModel(values: ModelValues, amount: number | undefined): LoadModel {
  for (const option of ['ramp-to', 'max-in-flight'] as const) {
    if (values[option] !== undefined)
      throw new UsageError(`--${option} is an option of the open model: give --rate or --phases with it`);
  }
  const notices: string[] = [];
  let connections = number(values.connections, 'connections', DEFAULT_CONNECTIONS, 1, 1000, true);
  // Every connection sends at least one request, so there cannot be more connections than requests.
  if (amount !== undefined && amount < connections) {
    notices.push(`--amount ${amount} is below ${connections} connections: using ${amount} connections`);
    connections = amount;
  }
  const durationS = number(values.duration, 'duration', DEFAULT_DURATION_S, 1, MAX_SECONDS, false);
  return { connections, durationS, ...(amount !== undefined ? { amount } : {}), notices };
}

/** One item of `--phases`: `RATExSECONDS`, or `FROM-TOxSECONDS` for a linear ramp. */
function phase(item: string): Phase {
  const match = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?x(\d+(?:\.\d+)?)$/.exec(item.trim());
  const seconds = Number(match?.[3]);
  if (!match || !(seconds > 0) || seconds > MAX_SECONDS) {
    throw new UsageError(
      `--phases: each phase is RATExSECONDS or FROM-TOxSECONDS, seconds above 0 and at most ${MAX_SECONDS}, ` +
        `e.g. "10x30,10-100x60" (got ${quote(item)})`,
    );
  }
  const rate = Number(match[1]);
  const rampTo = match[2] === undefined ? undefined : Number(match[2]);
  if (Math.max(rate, rampTo ?? 0) > MAX_RATE)
    throw new UsageError(`--phases: a rate is at most ${MAX_RATE} requests per second (got ${quote(item)})`);
  return { rate, ...(rampTo !== undefined ? { rampTo } : {}), durationS: seconds };
}

/** The phases of `--phases`, which says both the rates and how long: no other option may say either. */
function phaseList(values: ModelValues): Phase[] {
  for (const option of ['rate', 'ramp-to', 'duration', 'amount'] as const) {
    if (values[option] !== undefined)
      throw new UsageError(`--phases holds the rates and how long each lasts: leave out --${option}`);
  }
  const items = values.phases!.split(',');
  if (items.length > MAX_PHASES) throw new UsageError(`--phases holds at most ${MAX_PHASES} phases`);
  const phases = items.map(phase);
  const totalS = phases.reduce((sum, p) => sum + p.durationS, 0);
  if (totalS > MAX_SECONDS)
    throw new UsageError(`--phases last ${totalS} s in all, more than ${MAX_SECONDS}`);
  return phases;
}

/** The single phase of `--rate`: steady or ramping to `--ramp-to`, over `--duration` or for `--amount` requests. */
function ratePhase(values: ModelValues, amount: number | undefined): Phase {
  const rate = number(values.rate, 'rate', 0, 0, MAX_RATE, false);
  const rampTo =
    values['ramp-to'] === undefined ? undefined : number(values['ramp-to'], 'ramp-to', 0, 0, MAX_RATE, false);
  if (rate === 0 && !rampTo)
    throw new UsageError('--rate 0 sends nothing: give a rate above 0, or --ramp-to to ramp up from 0');
  if (amount === undefined) {
    const durationS = number(values.duration, 'duration', DEFAULT_DURATION_S, 1, MAX_SECONDS, false);
    return { rate, ...(rampTo !== undefined ? { rampTo } : {}), durationS };
  }
  if (rampTo !== undefined)
    throw new UsageError('--ramp-to ramps over --duration: give --duration instead of --amount');
  const durationS = amount / rate;
  if (durationS > MAX_SECONDS)
    throw new UsageError(
      `--amount ${amount} at --rate ${rate} lasts ${durationS} s, more than ${MAX_SECONDS}`,
    );
  return { rate, durationS };
}

/** Reads the model options; every failure is a one-line UsageError. */
export function loadModel(values: ModelValues): LoadModel {
  if (values.amount !== undefined && values.duration !== undefined) {
    throw new UsageError('--amount and --duration both say when to stop: give one');
  }
  const amount =
    values.amount === undefined ? undefined : number(values.amount, 'amount', 0, 1, 10_000_000, true);
  if (values.rate === undefined && values.phases === undefined) {
    if (values['ramp-to'] !== undefined)
      throw new UsageError('--ramp-to ramps from --rate: give --rate with it');
    return closedModel(values, amount);
  }
  if (values.connections !== undefined) {
    throw new UsageError(
      '--connections (the closed model) and --rate or --phases (the open model) pick different models: give one',
    );
  }
  if (values.rate !== undefined && values.phases !== undefined)
    throw new UsageError('--phases holds the rates and how long each lasts: leave out --rate');
  const phases = values.phases !== undefined ? phaseList(values) : [ratePhase(values, amount)];
  const maxInFlight = number(values['max-in-flight'], 'max-in-flight', 1000, 1, 100_000, true);
  if (new Schedule(phases).count === 0)
    throw new UsageError('the schedule holds no request: raise the rates or lengthen the phases');
  return {
    // The closed model's connections go unused: the open model opens a connection per request in flight.
    connections: DEFAULT_CONNECTIONS,
    durationS: phases.reduce((sum, p) => sum + p.durationS, 0),
    ...(amount !== undefined ? { amount } : {}),
    open: { phases, maxInFlight },
    notices: [],
  };
}
