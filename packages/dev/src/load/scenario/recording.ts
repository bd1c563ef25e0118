/**
 * What a scenario run records, in bounded memory: a recorder (samples.ts) per step of each flow, one per flow for
 * its runs, and one for every step of the load, all on one clock. A step is filed as it ends, with its latency
 * from its start to its last answer (think times apart), and the requests it sent.
 */
import { RESULT_KINDS, RunRecorder, type Kind } from '../samples.ts';
import type { Flow, Scenario } from './types.ts';

/**
 * Where a flow run files its steps and its end (flows.ts), on one clock: the recording of `npm run load`, or the
 * metrics of an Artillery worker (../artillery/metrics.ts).
 */
export interface FlowLog {
  /** Milliseconds since the start of the load. */
  now(): number;
  /** Files one ended step of a flow (its slot: `initialize` first in the handshake era), with the requests it sent. */
  step(
    flow: number,
    step: number,
    end: { kind: Kind; detail?: string },
    startMs: number,
    requests: number,
  ): void;
  /** Files one ended flow run, `ok` or the kind that failed it. */
  run(flow: number, kind: Kind, startMs: number, detail?: string): void;
}

/** One step's recording: its label, its kind, its recorder and the requests it sent. */
export interface StepRecording {
  label: string;
  kind: string;
  recorder: RunRecorder;
  requests: number;
}

/** One flow's recording: its runs (each filed as `ok`, or as the kind of the step that failed it) and its steps. */
export interface FlowRecording {
  runs: RunRecorder;
  steps: StepRecording[];
}

/** The step every handshake-era flow run starts with: its session, opened by `initialize`. */
const INITIALIZE = 'initialize';

/** The steps a flow run files, in order: `initialize` first in the handshake era, then the flow's own. */
export const stepSlots = (flow: Flow): { label: string; kind: string }[] => [
  ...(flow.era === 'handshake' ? [{ label: INITIALIZE, kind: INITIALIZE }] : []),
  ...flow.steps.map((step) => ({ label: step.label, kind: step.kind })),
];

/** A step's latency from its start to its end at `atMs`; none for a step whose last request got no answer. */
export const stepLatency = (kind: Kind, atMs: number, startMs: number): number | undefined =>
  kind === 'timeout' || kind === 'transport-error' ? undefined : atMs - startMs;

/** The recording of a scenario run. */
export class ScenarioRecording implements FlowLog {
  /** Every step of the load: the clock of the whole recording, and the source of the charts. */
  readonly all = new RunRecorder();
  readonly flows: FlowRecording[];
  /** HTTP requests sent in all. */
  requests = 0;

  constructor(scenario: Scenario) {
    this.flows = scenario.flows.map((flow) => ({
      runs: new RunRecorder(),
      steps: stepSlots(flow).map((step) => ({ ...step, recorder: new RunRecorder(), requests: 0 })),
    }));
  }

  /** Marks the start of the load. */
  start(): void {
    this.all.start();
    for (const recorder of this.recorders()) recorder.startedAt = this.all.startedAt;
  }

  /** Milliseconds since the start of the load. */
  now(): number {
    return this.all.now();
  }

  /** Files one ended step: `latencyMs` from its start, unless no request of it got an answer. */
  step(flow: number, step: number, end: { kind: Kind; detail?: string }, startMs: number, requests: number) {
    const atMs = this.now();
    const latency = stepLatency(end.kind, atMs, startMs);
    const recording = this.flows[flow]!.steps[step]!;
    recording.recorder.record(atMs, end.kind, latency, end.detail);
    recording.requests += requests;
    this.requests += requests;
    this.all.record(atMs, end.kind, latency, end.detail);
  }

  /** Files one ended flow run, `ok` or the kind that failed it, with its duration (think times included). */
  run(flow: number, kind: Kind, startMs: number, detail?: string): void {
    const atMs = this.now();
    this.flows[flow]!.runs.record(atMs, kind, atMs - startMs, detail);
  }

  private *recorders(): Generator<RunRecorder> {
    for (const flow of this.flows) {
      yield flow.runs;
      for (const step of flow.steps) yield step.recorder;
    }
  }
}

/** Whether a step's end lets its flow run go on: an MCP result (an `isError` one too). */
export const goesOn = (kind: Kind): boolean => RESULT_KINDS.includes(kind);
