/**
 * What a load run records about each request, in bounded memory: latencies in HDR-style log buckets (every value
 * kept within 2 % of itself), counted per time slice and for the whole run, with the count and first detail of each
 * kind of answer or failure. Nothing grows with the number of requests: a slice holds at most ~830 buckets, and the
 * run keeps at most `MAX_SLICES` slices by doubling the slice width (merging neighbours) when a run outgrows them.
 */
import type { Outcome } from './classify.ts';

/** Every kind a request can end as: an answer classified by `classify`, or no answer at all. */
export type Kind = Outcome | 'timeout' | 'transport-error';

/** Kinds in report order: MCP results first, then failures. */
export const KINDS: readonly Kind[] = [
  'ok',
  'tool-error',
  'rpc-error',
  'non-2xx',
  'malformed',
  'timeout',
  'transport-error',
];

/** Kinds that are MCP results (an `isError` result is still an answer the protocol promises). */
export const RESULT_KINDS: readonly Kind[] = ['ok', 'tool-error'];

/** Kinds that got no HTTP answer. */
const TRANSPORT_KINDS: readonly Kind[] = ['timeout', 'transport-error'];

/** Counts by kind, every kind present. */
export type KindCounts = Record<Kind, number>;

const emptyCounts = (): KindCounts => Object.fromEntries(KINDS.map((kind) => [kind, 0])) as KindCounts;

const LOWEST_MS = 0.01;
const RATIO = 1.02;
const LOG_RATIO = Math.log(RATIO);

/** The bucket of a latency: bucket i holds (0.01 ms · 1.02^(i-1), 0.01 ms · 1.02^i]; bucket 0 everything below. */
const bucketOf = (ms: number): number =>
  ms <= LOWEST_MS ? 0 : Math.ceil(Math.log(ms / LOWEST_MS) / LOG_RATIO);

/** The upper edge of a bucket (the value a percentile in it reports, as HDR histograms do). */
export const bucketUpperMs = (bucket: number): number => LOWEST_MS * RATIO ** bucket;

/** A latency histogram: sparse log buckets plus the exact count, sum, minimum and maximum. */
export class LatencyHistogram {
  readonly buckets = new Map<number, number>();
  count = 0;
  sumMs = 0;
  minMs = Infinity;
  maxMs = 0;

  record(ms: number): void {
    const bucket = bucketOf(ms);
    this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + 1);
    this.count++;
    this.sumMs += ms;
    this.minMs = Math.min(this.minMs, ms);
    this.maxMs = Math.max(this.maxMs, ms);
  }

  merge(other: LatencyHistogram): void {
    for (const [bucket, n] of other.buckets) this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + n);
    this.count += other.count;
    this.sumMs += other.sumMs;
    this.minMs = Math.min(this.minMs, other.minMs);
    this.maxMs = Math.max(this.maxMs, other.maxMs);
  }

  /**
   * The nearest-rank percentile (0 < p ≤ 100): never below the exact value and at most 2 % above it (the
   * bucket's upper edge, capped at the maximum seen). 0 when empty.
   */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (const [bucket, n] of this.sorted()) {
      seen += n;
      if (seen >= rank) return Math.min(bucketUpperMs(bucket), this.maxMs);
    }
    return this.maxMs;
  }

  /** Buckets in ascending order, as [bucket, count]. */
  sorted(): [number, number][] {
    return [...this.buckets].sort((a, b) => a[0] - b[0]);
  }

  get meanMs(): number {
    return this.count === 0 ? 0 : this.sumMs / this.count;
  }
}

/** One time slice of a run: what ended in it, and the latencies of the answers that did. */
export interface Slice {
  counts: KindCounts;
  latency: LatencyHistogram;
}

/** Slices a run keeps at most; past that, neighbours merge and the slice width doubles. */
export const MAX_SLICES = 256;
/** The starting slice width. */
const FIRST_SLICE_MS = 100;
/** Details kept per kind are clipped to this many characters (they echo what the server sent). */
const DETAIL_LIMIT = 200;

const emptySlice = (): Slice => ({ counts: emptyCounts(), latency: new LatencyHistogram() });

/**
 * Records one run. Times are milliseconds since the start of the load phase, from a monotonic high-resolution
 * clock (`performance.now()`); each request is filed at the time its answer (or failure) arrived.
 */
export class RunRecorder {
  sliceMs = FIRST_SLICE_MS;
  slices: Slice[] = [];
  readonly latency = new LatencyHistogram();
  readonly counts = emptyCounts();
  /** The first detail seen of each kind other than `ok`. */
  readonly details: Partial<Record<Kind, string>> = {};
  /** When the last request ended (ms since start): the end of the run for its rate. */
  lastAtMs = 0;
  /** Wall-clock start of the load phase, for the report's header. */
  startedAt = new Date();
  private originMs = performance.now();

  /** Marks the start of the load phase. */
  start(): void {
    this.originMs = performance.now();
    this.startedAt = new Date();
  }

  /** Milliseconds since `start()`, from the monotonic high-resolution clock. */
  now(): number {
    return performance.now() - this.originMs;
  }

  /** Files one ended request. `latencyMs` is given for answers, not for timeouts and transport errors. */
  record(atMs: number, kind: Kind, latencyMs?: number, detail?: string): void {
    const at = Math.max(0, atMs);
    let index = Math.floor(at / this.sliceMs);
    while (index >= MAX_SLICES) {
      this.coarsen();
      index = Math.floor(at / this.sliceMs);
    }
    while (this.slices.length <= index) this.slices.push(emptySlice());
    const slice = this.slices[index]!;
    slice.counts[kind]++;
    this.counts[kind]++;
    if (latencyMs !== undefined) {
      slice.latency.record(latencyMs);
      this.latency.record(latencyMs);
    }
    if (kind !== 'ok' && detail !== undefined && this.details[kind] === undefined) {
      this.details[kind] = detail.length > DETAIL_LIMIT ? `${detail.slice(0, DETAIL_LIMIT)}…` : detail;
    }
    this.lastAtMs = Math.max(this.lastAtMs, at);
  }

  /** Files the requests of an `expected` total that never ended, as transport errors at the end of the run. */
  fileMissing(expected: number, detail: string): void {
    for (let i = this.ended; i < expected; i++)
      this.record(this.lastAtMs, 'transport-error', undefined, detail);
  }

  /** Requests that ended, answered or not. */
  get ended(): number {
    return KINDS.reduce((sum, k) => sum + this.counts[k], 0);
  }

  /** Requests that got an HTTP answer. */
  get answered(): number {
    return KINDS.filter((k) => !TRANSPORT_KINDS.includes(k)).reduce((sum, k) => sum + this.counts[k], 0);
  }

  /** Seconds from the start of the load to the last request's end. */
  get elapsedS(): number {
    return this.lastAtMs / 1000;
  }

  /** Answers per second over the real elapsed time (never whole seconds). */
  get requestsPerSecond(): number {
    return rate(this.answered, this.lastAtMs);
  }

  private coarsen(): void {
    const merged: Slice[] = [];
    for (let i = 0; i < this.slices.length; i += 2) merged.push(mergeSlices(this.slices.slice(i, i + 2)));
    this.slices = merged;
    this.sliceMs *= 2;
  }
}

/** Events per second over `elapsedMs` milliseconds (0 for an empty span). */
const rate = (events: number, elapsedMs: number): number => (elapsedMs > 0 ? events / (elapsedMs / 1000) : 0);

/** Several slices as one. */
function mergeSlices(slices: readonly Slice[]): Slice {
  const merged = emptySlice();
  for (const slice of slices) {
    for (const kind of KINDS) merged.counts[kind] += slice.counts[kind];
    merged.latency.merge(slice.latency);
  }
  return merged;
}

/** A slice of the timeline as shown: its span in seconds since the start and what ended in it. */
export interface TimelineSlice extends Slice {
  startS: number;
  endS: number;
}

/**
 * The run's slices regrouped for display: at most `maxPoints` slices, each holding (when the run allows) at
 * least `minAnswers` answers so its percentiles mean something. The last slice ends at the run's end; a last
 * slice shorter than half the width joins the one before, so a sliver does not show a rate from a few requests.
 */
export function timeline(recorder: RunRecorder, maxPoints = 60, minAnswers = 20): TimelineSlice[] {
  const n = recorder.slices.length;
  if (n === 0) return [];
  let group = 1;
  while (n / group > maxPoints || (recorder.answered / Math.ceil(n / group) < minAnswers && group < n)) {
    group *= 2;
  }
  const widthS = (recorder.sliceMs * group) / 1000;
  const endS = recorder.elapsedS;
  const shown: TimelineSlice[] = [];
  for (let i = 0; i < n; i += group) {
    // Edges from whole milliseconds, so they match the slice a time was filed in.
    const startS = (i * recorder.sliceMs) / 1000;
    shown.push({
      ...mergeSlices(recorder.slices.slice(i, i + group)),
      startS,
      endS: Math.min(((i + group) * recorder.sliceMs) / 1000, Math.max(endS, startS)),
    });
  }
  const last = shown.at(-1)!;
  if (shown.length > 1 && last.endS - last.startS < widthS / 2) {
    shown.pop();
    const previous = shown.pop()!;
    shown.push({ ...mergeSlices([previous, last]), startS: previous.startS, endS: last.endS });
  }
  return shown;
}
