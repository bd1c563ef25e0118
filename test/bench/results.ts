/** Everything one `npm run bench` measured, as printed and as written with `--json`. */
import type { BundleInfo } from './bundle.ts';
import type { ColdStartResult } from './cold-start.ts';
import type { HttpResult } from './http.ts';
import type { SoakResult } from './soak.ts';
import type { MachineInfo } from './machine.ts';
import type { ReadOutputResult } from './read-output.ts';
import type { StreamResult } from './stream.ts';
import type { ModelBytesResult } from './model-bytes.ts';
import type { ExistenceResult } from './existence.ts';
import type { ViewsResult } from './views.ts';
import type { WarmResult } from './warm.ts';

/** One offload round trip: a tool call whose output is stored, then the output read back and checked. */
export interface OffloadResult {
  /** Size of the tool's output in bytes. */
  outputBytes: number;
  /** tools/call answered with a resource_link (the output written to storage). */
  callMs: number;
  /** The tool alone producing the output, measured once in the benchmark's own process (for scale). */
  toolMs: number;
  /** Every part read back through resources/read. */
  readMs: number;
  parts: number;
  /** The bytes read back equal the bytes the tool produced. */
  verified: boolean;
  /** Round trips measured (the medians are over them). */
  runs: number;
  /** Peak RSS of the function process (a fresh one per size) over its round trips: tool, store and reads. */
  peakRssBytes: number;
}

/** Latency of one kind of request of the tasks part, one request at a time. */
export interface TaskPollResult {
  label: string;
  polls: number;
  p50Ms: number;
  p99Ms: number;
}

/** One poll interval of the asking part: answer-to-result latency, reads while waiting, cost of 1,000 asks. */
export interface AskResult {
  pollIntervalMs: number;
  asks: number;
  p50Ms: number;
  p95Ms: number;
  /** Call state reads per second a waiting call makes. */
  readsPerWaitedSecond: number;
  /** DynamoDB on-demand cost of 1,000 asks that each wait the assumed time (asks.ts). */
  dynamoUsdPer1000Asks: number;
  /** The MCP function's billed waiting time for the same 1,000 asks. */
  lambdaUsdPer1000Asks: number;
}

/** One poll interval of the resuming part: a stream cut on one instance, resumed on another (resumes.ts). */
export interface ResumeResult {
  pollIntervalMs: number;
  resumes: number;
  /** The tool's answer to its arrival on the resumed stream. */
  p50Ms: number;
  p95Ms: number;
  /** Log reads of one resume (the head, the events, the polls while waiting), and per waited second. */
  readsPerResume: number;
  readsPerWaitedSecond: number;
}

/** The MCP_TRACING modes the tracing part compares (tracing.ts). */
export const TRACING_MODES = ['off', 'propagation', 'on'] as const;
export type TracingMode = (typeof TRACING_MODES)[number];

/** One mode's figures (medians over the runs). */
export interface TracingResult {
  mode: TracingMode;
  /** Module load and init plus the first call (spans sent included). */
  coldCodeMs: number;
  /** Module load and init alone. */
  importMs: number;
  /** One warm call, in microseconds (its spans sent included). */
  warmMicros: number;
  /** Exports the collector received in the run (`on`). */
  received: number;
  failures: number;
}

/** Settings of a run, printed so a reader can reproduce it. */
export interface BenchSettings {
  coldStartRuns: number;
  warmRuns: number;
  warmDurationMs: number;
  httpConnections: number;
  httpDurationS: number;
  httpRounds: number;
  soakCalls: number;
  streamCalls: number;
  /** Sequential polls per row of the tasks part. */
  taskPolls: number;
  /** Reads per kind of id in the existence timing part. */
  idReads?: number;
  /** Asks per poll interval of the asking part. */
  asks?: number;
  /** Resumed calls per poll interval of the resuming part. */
  resumes?: number;
  /** Timed browser runs per view in the views part. */
  viewPaintRuns: number;
  execArgv: readonly string[];
  /** A quick run (--quick): too few samples to judge timing, throughput and memory against the goals. */
  quick?: true;
}

/** The outcome of one target of issue 5. */
export interface TargetCheck {
  name: string;
  goal: string;
  measured: string;
  met: boolean | undefined;
  /** How far off, and why, when missed. */
  note?: string;
  /** A retired target kept as information: measured, judged by nothing. */
  information?: true;
  /**
   * Judged on exact figures (sizes, counts, correctness), which a quick run measures as well as a full one; the
   * others (times, rates, memory) come from samples a quick run has too few of.
   */
  exact?: true;
}

/** A part of a run that failed, and why; the run went on without it. */
interface FailedPart {
  part: string;
  message: string;
}

export interface BenchResults {
  date: string;
  machine: MachineInfo;
  settings: BenchSettings;
  bundles: Omit<BundleInfo, 'file'>[];
  coldStart?: ColdStartResult[];
  warm?: WarmResult[];
  http?: HttpResult[];
  offload?: OffloadResult[] | { pending: string };
  stream?: StreamResult[];
  soak?: SoakResult;
  readOutput?: ReadOutputResult;
  tasks?: TaskPollResult[];
  modelBytes?: ModelBytesResult;
  existence?: ExistenceResult;
  asks?: AskResult[];
  resumes?: ResumeResult[];
  views?: ViewsResult;
  /** Each MCP_TRACING mode against off (tracing.ts). */
  tracing?: TracingResult[];
  targets: TargetCheck[];
  /** Parts that ended with an error (the run's exit status is then 1). */
  failedParts?: FailedPart[];
  durationS: number;
}
