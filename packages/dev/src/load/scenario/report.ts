/**
 * The report of a scenario run, as `--json` prints it and the text and HTML reports show it: per step of each flow
 * (steps ended, requests sent, ends by kind, latency percentiles), per flow (its runs, those a failed step ended,
 * their durations) and for the whole load, with the open model's arrivals when it ran.
 */
import type { LoadEra } from '../mcp-request.ts';
import { scheduleFigures, type Latency, type OpenRun, type ScheduleFigures } from '../run.ts';
import { KINDS, RESULT_KINDS, type Kind, type LatencyHistogram, type RunRecorder } from '../samples.ts';
import type { StackReport } from '../stack/side.ts';
import type { ScenarioRecording, StepRecording } from './recording.ts';
import type { ScenarioOptions } from './types.ts';

/** What one kind of figures holds: how many ended, by kind, and how long they took. */
export interface Figures {
  /** Ended (answered or not). */
  count: number;
  /** Ends by kind: `ok` and `tool-error` (isError) are MCP results, the others failures. */
  outcomes: Record<Kind, number>;
  /** Ends that are not MCP results. */
  failures: number;
  /** Latencies of those that got answers. */
  latencyMs: Latency;
  /** The first detail of each kind other than `ok`. */
  samples: Partial<Record<Kind, string>>;
}

/** One step of a flow: what it is, and its figures with the HTTP requests it sent. */
export interface StepFigures extends Figures {
  step: string;
  kind: string;
  requests: number;
}

/** One flow: its runs (a run fails with the first failed step), and its steps. */
export interface FlowFigures {
  name: string;
  weight: number;
  era: LoadEra;
  /** Its runs, each filed `ok` or as the kind that failed it, their durations with the think times. */
  runs: Figures;
  steps: StepFigures[];
}

/** The open model's schedule of flow runs, and what became of it. */
export interface ScenarioArrivals extends ScheduleFigures {
  /** Flow runs started, and those due while `maxInFlight` ran (never started). */
  started: number;
  notStarted: number;
  peakInFlight: number;
  maxStartLagMs: number;
}

/** What a scenario run measured. */
export interface ScenarioReport {
  scenario: string;
  file: string;
  url: string;
  model: 'closed' | 'open';
  connections?: number;
  open?: ScenarioArrivals;
  /** Seconds from the start of the load to the last step's end. */
  durationS: number;
  flowRuns: number;
  /** HTTP requests sent, and steps ended a second. */
  requests: number;
  stepsPerSecond: number;
  /** Every step of the load. */
  steps: Figures;
  flows: FlowFigures[];
  /** Whether every step got its MCP results (isError included) and, in the open model, every run started. */
  passed: boolean;
  /** With `--stack`: the endpoint's limits before the run, and its Lambda side from CloudWatch after it. */
  stack?: StackReport;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function latencyOf(histogram: LatencyHistogram): Latency {
  return {
    p50: round(histogram.percentile(50)),
    p90: round(histogram.percentile(90)),
    p99: round(histogram.percentile(99)),
    max: round(histogram.maxMs),
    mean: round(histogram.meanMs),
  };
}

/** The figures of one recorder. */
function figuresOf(recorder: RunRecorder): Figures {
  const outcomes = Object.fromEntries(KINDS.map((kind) => [kind, recorder.counts[kind]])) as Record<
    Kind,
    number
  >;
  const samples: Partial<Record<Kind, string>> = {};
  for (const kind of KINDS) if (recorder.details[kind] !== undefined) samples[kind] = recorder.details[kind];
  return {
    count: recorder.ended,
    outcomes,
    failures: KINDS.filter((k) => !RESULT_KINDS.includes(k)).reduce((sum, k) => sum + outcomes[k], 0),
    latencyMs: latencyOf(recorder.latency),
    samples,
  };
}

const stepFigures = (step: StepRecording): StepFigures => ({
  step: step.label,
  kind: step.kind,
  requests: step.requests,
  ...figuresOf(step.recorder),
});

function arrivalsOf(run: OpenRun): ScenarioArrivals {
  const { arrivals } = run;
  return {
    ...scheduleFigures(run),
    started: arrivals.sent,
    notStarted: arrivals.notSent,
    peakInFlight: arrivals.peakInFlight,
    maxStartLagMs: round(arrivals.maxSendLagMs),
  };
}

/** The report of a recorded scenario run. */
export function summarizeScenario(
  recording: ScenarioRecording,
  options: ScenarioOptions,
  open?: OpenRun,
): ScenarioReport {
  const { scenario } = options;
  const flows = scenario.flows.map((flow, i) => ({
    name: flow.name,
    weight: flow.weight,
    era: flow.era,
    runs: figuresOf(recording.flows[i]!.runs),
    steps: recording.flows[i]!.steps.map(stepFigures),
  }));
  const steps = figuresOf(recording.all);
  const flowRuns = flows.reduce((sum, flow) => sum + flow.runs.count, 0);
  const arrivals = open ? arrivalsOf(open) : undefined;
  return {
    scenario: scenario.name,
    file: scenario.file,
    url: options.url,
    ...(arrivals
      ? { model: 'open' as const, open: arrivals }
      : { model: 'closed' as const, connections: options.connections }),
    durationS: round(recording.all.elapsedS, 3),
    flowRuns,
    requests: recording.requests,
    stepsPerSecond: round(recording.all.elapsedS > 0 ? steps.count / recording.all.elapsedS : 0, 1),
    steps,
    flows,
    passed: steps.failures === 0 && flowRuns > 0 && (arrivals?.notStarted ?? 0) === 0,
  };
}
