/**
 * The report of a scenario run on Artillery, from the JSON `artillery run --output` writes and the
 * scenario the test was emitted from: the same figures per step and per flow as `npm run load -- --scenario`
 * reports, read from the custom metrics the processor emitted (metrics.ts). What Artillery's JSON does not hold is
 * said to be missing, never made up: the first failure of each kind (the workers print it), the latency histogram
 * and the open model's schedule against its arrivals.
 */
import { readFileSync } from 'node:fs';
import type { Latency } from '../run.ts';
import { KINDS, RESULT_KINDS, type Kind } from '../samples.ts';
import type { Figures, FlowFigures, ScenarioReport, StepFigures } from '../scenario/report.ts';
import { stepSlots } from '../scenario/recording.ts';
import type { Scenario } from '../scenario/types.ts';
import {
  ALL_STEPS_MS,
  kindName,
  latencyName,
  PREFLIGHT_FAILED,
  requestsName,
  runsName,
  stepNames,
} from './metrics.ts';

/** An Artillery summary of a histogram, as its JSON writes it. */
interface Summary {
  count: number;
  mean: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
}

/** The metrics of one period of an Artillery run (or of the whole run), as its JSON writes them. */
export interface ArtilleryMetrics {
  period?: number | string;
  counters?: Record<string, number>;
  summaries?: Record<string, Summary>;
  firstCounterAt?: number;
  lastCounterAt?: number;
}

/** The JSON `artillery run --output` writes: the whole run, and each of its periods. */
export interface ArtilleryOutput {
  aggregate: ArtilleryMetrics;
  intermediate: ArtilleryMetrics[];
}

/** What Artillery's virtual users did: created, completed, failed, and skipped at the phase's `maxVusers`. */
export interface VirtualUsers {
  created: number;
  completed: number;
  failed: number;
  skipped: number;
}

/** One of Artillery's reporting periods (10 s): its steps, their failures and latency. */
export interface ArtilleryPeriod {
  /** Seconds from the first period's start. */
  startS: number;
  steps: number;
  failures: number;
  p50: number;
  p99: number;
}

/** What a scenario run on Artillery measured, as far as its JSON says. */
export interface ArtilleryReport extends Pick<
  ScenarioReport,
  'scenario' | 'file' | 'url' | 'flowRuns' | 'requests' | 'steps' | 'flows'
> {
  engine: 'artillery';
  /** When the first metric was recorded (ISO time). */
  startedAt: string;
  /** Seconds from the first metric to the last, as Artillery recorded them. */
  durationS: number;
  stepsPerSecond: number;
  vusers: VirtualUsers;
  /** Artillery's error counters by message (a failed preflight's, for one). */
  errors: Record<string, number>;
  periods: ArtilleryPeriod[];
  /** What the report cannot show from Artillery's JSON. */
  notAvailable: string[];
  /** Every step got its MCP result, every virtual user ran and none was skipped. */
  passed: boolean;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

const NOT_AVAILABLE = [
  'the first failure of each kind per step (each worker prints it on its output)',
  "the latency histogram and percentiles over time finer than Artillery's 10-second periods",
  "the open model's schedule against its arrivals (Artillery counts the virtual users it created and skipped)",
];

function latencyOf(summary: Summary | undefined): Latency {
  if (!summary) return { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const { p50, p90, p99, max, mean } = summary;
  return { p50: round(p50), p90: round(p90), p99: round(p99), max: round(max), mean: round(mean) };
}

/** The figures of a step (or a flow's runs) from its metrics. */
function figuresOf(period: ArtilleryMetrics, name: string): Figures {
  const counters = period.counters ?? {};
  const outcomes = Object.fromEntries(
    KINDS.map((kind) => [kind, counters[kindName(name, kind)] ?? 0]),
  ) as Record<Kind, number>;
  return {
    count: KINDS.reduce((sum, kind) => sum + outcomes[kind], 0),
    outcomes,
    failures: KINDS.filter((k) => !RESULT_KINDS.includes(k)).reduce((sum, k) => sum + outcomes[k], 0),
    latencyMs: latencyOf(period.summaries?.[latencyName(name)]),
    samples: {},
  };
}

/** The figures of every step of the load: their ends summed, their latency from the histogram of them all. */
function allSteps(flows: FlowFigures[], period: ArtilleryMetrics): Figures {
  const outcomes = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>;
  for (const step of flows.flatMap((flow) => flow.steps))
    for (const kind of KINDS) outcomes[kind] += step.outcomes[kind];
  return {
    count: KINDS.reduce((sum, kind) => sum + outcomes[kind], 0),
    outcomes,
    failures: KINDS.filter((k) => !RESULT_KINDS.includes(k)).reduce((sum, k) => sum + outcomes[k], 0),
    latencyMs: latencyOf(period.summaries?.[ALL_STEPS_MS]),
    samples: {},
  };
}

function flowsOf(scenario: Scenario, period: ArtilleryMetrics): FlowFigures[] {
  return scenario.flows.map((flow) => {
    const slots = stepSlots(flow);
    const steps: StepFigures[] = stepNames(flow).map((name, i) => ({
      step: slots[i]!.label,
      kind: slots[i]!.kind,
      requests: period.counters?.[requestsName(name)] ?? 0,
      ...figuresOf(period, name),
    }));
    return {
      name: flow.name,
      weight: flow.weight,
      era: flow.era,
      runs: figuresOf(period, runsName(flow)),
      steps,
    };
  });
}

function periodsOf(scenario: Scenario, periods: ArtilleryMetrics[]): ArtilleryPeriod[] {
  const first = Number(periods[0]?.period ?? 0);
  return periods.map((period) => {
    const steps = allSteps(flowsOf(scenario, period), period);
    return {
      startS: round((Number(period.period ?? first) - first) / 1000, 1),
      steps: steps.count,
      failures: steps.failures,
      p50: steps.latencyMs.p50,
      p99: steps.latencyMs.p99,
    };
  });
}

/** Reads Artillery's JSON output file; throws when it is not one. */
export function readArtilleryOutput(path: string): ArtilleryOutput {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ArtilleryOutput>;
  if (
    typeof parsed.aggregate !== 'object' ||
    parsed.aggregate === null ||
    !Array.isArray(parsed.intermediate)
  )
    throw new Error(`${path} is not the JSON of artillery run --output (no aggregate and intermediate)`);
  return { aggregate: parsed.aggregate, intermediate: parsed.intermediate };
}

/** The report of a scenario's run on Artillery, from its JSON output. */
export function artilleryReport(output: ArtilleryOutput, scenario: Scenario, url: string): ArtilleryReport {
  const { aggregate } = output;
  const counters = aggregate.counters ?? {};
  const flows = flowsOf(scenario, aggregate);
  const steps = allSteps(flows, aggregate);
  const durationS = round(((aggregate.lastCounterAt ?? 0) - (aggregate.firstCounterAt ?? 0)) / 1000, 3);
  const vusers: VirtualUsers = {
    created: counters['vusers.created'] ?? 0,
    completed: counters['vusers.completed'] ?? 0,
    failed: counters['vusers.failed'] ?? 0,
    skipped: counters['vusers.skipped'] ?? 0,
  };
  const errors = Object.fromEntries(
    Object.entries(counters)
      .filter(([name]) => name.startsWith('errors.'))
      .map(([name, n]) => [name.slice('errors.'.length), n]),
  );
  const flowRuns = flows.reduce((sum, flow) => sum + flow.runs.count, 0);
  return {
    engine: 'artillery',
    scenario: scenario.name,
    file: scenario.file,
    url,
    startedAt: new Date(aggregate.firstCounterAt ?? 0).toISOString(),
    durationS,
    flowRuns,
    requests: flows.reduce((sum, flow) => sum + flow.steps.reduce((n, step) => n + step.requests, 0), 0),
    stepsPerSecond: round(durationS > 0 ? steps.count / durationS : 0, 1),
    steps,
    flows,
    vusers,
    errors,
    periods: periodsOf(scenario, output.intermediate),
    notAvailable: NOT_AVAILABLE,
    passed:
      steps.failures === 0 &&
      flowRuns > 0 &&
      vusers.failed === 0 &&
      vusers.skipped === 0 &&
      (counters[PREFLIGHT_FAILED] ?? 0) === 0,
  };
}
