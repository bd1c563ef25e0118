/**
 * The load run: the preflight (preflight.ts), then the load in the model the options name: the closed loop of
 * connections (closed-run.ts) or arrivals on a schedule (open-run.ts), each filing every request's end time,
 * latency and kind (samples.ts) for the reports.
 */
import type { Outcome } from './classify.ts';
import { fireClosed } from './closed-run.ts';
import { fireOpen, type Arrivals } from './open-run.ts';
import type { LoadOptions } from './options.ts';
import { prepare, type Prepared } from './preflight.ts';
import { RunRecorder } from './samples.ts';
import { Schedule, type OpenPlan, type Phase } from './schedule.ts';
import type { StackReport } from './stack/side.ts';

export type { Prepared } from './preflight.ts';

/** Latency percentiles in milliseconds. */
export interface Latency {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** The schedule an open-model run was asked for, and how many of its arrivals came due. */
export interface ScheduleFigures {
  phases: Phase[];
  maxInFlight: number;
  /** Arrivals the schedule holds, and the seconds it lasts. */
  planned: number;
  scheduleS: number;
  /** Arrivals per second the schedule offers: `planned` over `scheduleS`. */
  offeredRate: number;
  scheduled: number;
}

/** An open-model run: the schedule it was asked for, and what became of it. */
export interface OpenFigures extends Arrivals, ScheduleFigures {
  /** Requests sent per second over the schedule's seconds: below the offered rate when some were not sent. */
  sentRate: number;
  /** Requests answered (the report's `requests`). */
  answered: number;
  /** Answers per second from the start of the load to the last answer (the report's `requestsPerSecond`). */
  achievedRate: number;
}

/** What a load run measured. */
export interface LoadReport {
  url: string;
  tool: string;
  era: LoadOptions['era'];
  protocolVersion: string;
  /**
   * Which model ran: `closed`, connections that each send their next request when their answer arrived; or
   * `open`, requests that arrive on a schedule, each timed from its intended start.
   */
  model: 'closed' | 'open';
  /** Closed model: the connections. */
  connections?: number;
  /** Open model: the schedule, and the requests scheduled, sent, not sent and answered. */
  open?: OpenFigures;
  /** Seconds from the start of the load phase to the last request's end (high-resolution clock). */
  durationS: number;
  /** Answers received. */
  requests: number;
  /** Answers per second over `durationS`. */
  requestsPerSecond: number;
  /** Latencies of the answers (within 2 %, see samples.ts), whatever their kind. */
  latencyMs: Latency;
  /** Socket errors and timeouts (requests that got no answer). */
  errors: number;
  timeouts: number;
  /** Answers by kind: `ok` and `tool-error` (isError) are MCP results, the others are failures. */
  outcomes: Record<Outcome, number>;
  /** The first answer of each failing kind, to show what went wrong. */
  samples: Partial<Record<Outcome, string>>;
  /** Whether every request (every scheduled one, in the open model) was sent and got a 2xx JSON-RPC result. */
  passed: boolean;
  /** With `--stack`: the endpoint's limits before the run, and its Lambda side from CloudWatch after it. */
  stack?: StackReport;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Runs the load phase with a prepared request, filing every request in `recorder` as it ends. `signal` stops it
 * early (Ctrl-C).
 */
export async function fire(
  options: LoadOptions,
  prepared: Prepared,
  signal?: AbortSignal,
  recorder = new RunRecorder(),
): Promise<LoadReport> {
  const target = {
    url: options.url,
    tool: options.tool,
    era: options.era,
    protocolVersion: prepared.protocolVersion,
  };
  if (options.open) {
    const plan = options.open;
    const limit = options.amount;
    const arrivals = await fireOpen(
      { url: options.url, timeoutS: options.timeoutS, plan, ...(limit !== undefined ? { limit } : {}) },
      prepared.request,
      recorder,
      signal,
    );
    return summarize(recorder, {
      ...target,
      open: { plan, schedule: new Schedule(plan.phases, limit), arrivals },
    });
  }
  const connections = await fireClosed(options, prepared, recorder, signal);
  return summarize(recorder, { ...target, connections });
}

/** An open run as `summarize` takes it: the plan, its schedule, and what became of it. */
export interface OpenRun {
  plan: OpenPlan;
  schedule: Schedule;
  arrivals: Arrivals;
}

/** Who was loaded and how: the part of a report the recording does not hold (connections, or the open run). */
export type RunTarget = Pick<LoadReport, 'url' | 'tool' | 'era' | 'protocolVersion'> &
  ({ connections: number; open?: undefined } | { open: OpenRun; connections?: undefined });

/** The schedule's figures of an open run (the single-tool and the scenario reports share them). */
export function scheduleFigures({ plan, schedule, arrivals }: OpenRun): ScheduleFigures {
  return {
    phases: plan.phases,
    maxInFlight: plan.maxInFlight,
    planned: schedule.count,
    scheduleS: round(schedule.durationS, 3),
    offeredRate: round(schedule.offeredRate, 1),
    scheduled: arrivals.scheduled,
  };
}

function openFigures(run: OpenRun, recorder: RunRecorder): OpenFigures {
  const { schedule, arrivals } = run;
  return {
    ...scheduleFigures(run),
    sent: arrivals.sent,
    notSent: arrivals.notSent,
    sentRate: round(schedule.durationS > 0 ? arrivals.sent / schedule.durationS : 0, 1),
    answered: recorder.answered,
    achievedRate: round(recorder.requestsPerSecond, 1),
    peakInFlight: arrivals.peakInFlight,
    maxSendLagMs: round(arrivals.maxSendLagMs),
  };
}

/** The report of a recorded run: the rate over the real elapsed time, percentiles from the recorded latencies. */
export function summarize(recorder: RunRecorder, target: RunTarget): LoadReport {
  const { counts, latency } = recorder;
  const outcomes: Record<Outcome, number> = {
    ok: counts.ok,
    'tool-error': counts['tool-error'],
    'rpc-error': counts['rpc-error'],
    'non-2xx': counts['non-2xx'],
    malformed: counts.malformed,
  };
  const samples: Partial<Record<Outcome, string>> = {};
  for (const outcome of Object.keys(outcomes) as Outcome[]) {
    const detail = recorder.details[outcome];
    if (outcome !== 'ok' && detail !== undefined) samples[outcome] = detail;
  }
  const errors = counts.timeout + counts['transport-error'];
  const failures = errors + counts['rpc-error'] + counts['non-2xx'] + counts.malformed;
  const answered = recorder.answered;
  const { open, connections, ...who } = target;
  const figures = open ? openFigures(open, recorder) : undefined;
  return {
    ...who,
    ...(figures ? { model: 'open' as const, open: figures } : { model: 'closed' as const, connections }),
    durationS: round(recorder.elapsedS, 3),
    requests: answered,
    requestsPerSecond: round(recorder.requestsPerSecond, 1),
    latencyMs: {
      p50: round(latency.percentile(50)),
      p90: round(latency.percentile(90)),
      p99: round(latency.percentile(99)),
      max: round(latency.maxMs),
      mean: round(latency.meanMs),
    },
    errors,
    timeouts: counts.timeout,
    outcomes,
    samples,
    passed: failures === 0 && answered > 0 && (figures?.notSent ?? 0) === 0,
  };
}

/** Preflight, then load: the whole `npm run load`. */
export async function runLoad(
  options: LoadOptions,
  signal?: AbortSignal,
  recorder = new RunRecorder(),
): Promise<LoadReport> {
  return fire(options, await prepare(options), signal, recorder);
}
