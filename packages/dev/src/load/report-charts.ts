/**
 * The charts of a load report, drawn from a recorded run: latency percentiles over time, throughput over time and
 * the latency histogram; and the words both report formats use for the run's parameters and kinds.
 */
import type { LoadOptions } from './options.ts';
import type { LoadReport, OpenFigures } from './run.ts';
import {
  bucketUpperMs,
  KINDS,
  RESULT_KINDS,
  timeline,
  type Kind,
  type LatencyHistogram,
  type RunRecorder,
} from './samples.ts';
import { formatNumber } from './chart-scale.ts';
import { describePhases } from './schedule.ts';
import { histogramChart, lineChart, stackedColumns, type Bin } from './svg-chart.ts';

/** Everything a report file shows: how the run was asked for, what it measured, and its recording. */
export interface RecordedRun {
  options: LoadOptions;
  report: LoadReport;
  recorder: RunRecorder;
}

/** What each kind means, for the error kinds table. */
export const KIND_LABELS: Record<Kind, { name: string; meaning: string }> = {
  ok: { name: 'ok', meaning: 'a result' },
  'tool-error': { name: 'isError', meaning: 'a result with isError: the tool failed, the protocol worked' },
  'rpc-error': { name: 'JSON-RPC error', meaning: 'a 2xx answer carrying a JSON-RPC error' },
  'non-2xx': { name: 'non-2xx', meaning: 'an HTTP status outside 200-299' },
  malformed: { name: 'unreadable', meaning: 'a 2xx answer that is not an MCP result' },
  timeout: { name: 'timeout', meaning: 'no answer within the timeout' },
  'transport-error': { name: 'transport error', meaning: 'the connection failed (refused, reset…)' },
};

const PERCENTILE_COLORS = { p50: '#2563eb', p90: '#d97706', p99: '#dc2626' } as const;
const RESULT_COLOR = '#2563eb';
const TOOL_ERROR_COLOR = '#f59e0b';
const FAILURE_COLOR = '#dc2626';

const ARGS_LIMIT = 200;

/** The model that ran, in words: "closed: 10 connections", "open: 50 req/s for 10 s, at most 1000 in flight". */
export function modelSummary(report: LoadReport): string {
  return report.open
    ? `open model: ${describePhases(report.open.phases)}, at most ${report.open.maxInFlight} in flight`
    : `closed model: ${report.connections ?? 0} connections`;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The open model's arrivals as [label, shown text, metric name, exact value] rows: what the schedule offered and
 * what was sent (the answers and the achieved rate are the rows every report has).
 */
export function arrivalRows(open: OpenFigures): [string, string, string, number][] {
  return [
    ['offered rate', `${formatNumber(open.offeredRate)} req/s`, 'offered-rate', open.offeredRate],
    ['requests scheduled', count(open.scheduled), 'scheduled', open.scheduled],
    ['requests sent', count(open.sent), 'sent', open.sent],
    ['not sent (in-flight cap)', count(open.notSent), 'not-sent', open.notSent],
    ['peak in flight', count(open.peakInFlight), 'peak-in-flight', open.peakInFlight],
    ['latest send', `${formatNumber(open.maxSendLagMs)} ms after due`, 'send-lag', open.maxSendLagMs],
  ];
}

/** The run's parameters as label/value rows (the token's value is never shown, nor header values). */
export function parameterRows(run: RecordedRun): [string, string][] {
  const { options, report } = run;
  const args = JSON.stringify(options.args);
  const headers = Object.keys(options.headers);
  const stop = report.open
    ? `the schedule: ${count(report.open.planned)} requests over ${report.open.scheduleS} s`
    : options.amount !== undefined
      ? `${options.amount} requests`
      : `${options.durationS} s`;
  return [
    ['endpoint', options.url],
    ['tool', options.tool],
    ['arguments', args.length > ARGS_LIMIT ? `${args.slice(0, ARGS_LIMIT)}…` : args],
    ['era', `${options.era} (${report.protocolVersion || 'no version header'})`],
    ['model', modelSummary(report)],
    [
      'latency from',
      report.open ? "each request's intended start (queueing included)" : 'when each request was sent',
    ],
    ['stop after', stop],
    ['timeout', `${options.timeoutS} s per request`],
    [
      'preflight',
      options.initialize ? 'initialize / server/discover, tools/list, one call' : 'tools/list, one call',
    ],
    ['authorization', options.token ? 'bearer token (not shown)' : 'none'],
    ['extra headers', headers.length ? `${headers.join(', ')} (values not shown)` : 'none'],
    ['started', run.recorder.startedAt.toISOString()],
  ];
}

/**
 * The histogram's bars: consecutive recording buckets grouped so that at most `maxBins` bars span the minimum to
 * the maximum (empty bars included, so the shape is honest). Bar edges are bucket edges: (from, to].
 */
function histogramBins(latency: LatencyHistogram, maxBins = 40): Bin[] {
  const buckets = latency.sorted();
  if (buckets.length === 0) return [];
  const first = buckets[0]![0];
  const last = buckets.at(-1)![0];
  const group = Math.ceil((last - first + 1) / maxBins);
  const start = Math.floor(first / group) * group;
  const bins: Bin[] = [];
  for (let b = start; b <= last; b += group) {
    bins.push({ from: bucketUpperMs(b - 1), to: bucketUpperMs(b + group - 1), count: 0 });
  }
  for (const [bucket, count] of buckets) bins[Math.floor((bucket - start) / group)]!.count += count;
  return bins;
}

/** What the charts count: requests and their answers, or (a scenario's) steps. */
export interface ChartWords {
  perSecond: string;
  answers: string;
}

/** The three charts of a report, as SVG elements of the given width. */
export function reportCharts(
  run: { recorder: RunRecorder; report: Pick<LoadReport, 'requests' | 'latencyMs'> },
  width = 960,
  words: ChartWords = { perSecond: 'req/s', answers: 'answers' },
): Record<'percentiles' | 'throughput' | 'histogram', string> {
  const { recorder, report } = run;
  const slices = timeline(recorder);
  const xMax = Math.max(recorder.elapsedS, slices.at(-1)?.endS ?? 0, 0.001);
  const percentile = (name: keyof typeof PERCENTILE_COLORS) => ({
    name,
    color: PERCENTILE_COLORS[name],
    points: slices.map((s) => ({
      x: (s.startS + s.endS) / 2,
      y: s.latency.count > 0 ? Number(s.latency.percentile(Number(name.slice(1))).toFixed(2)) : undefined,
    })),
  });
  const perSecond = (n: number, s: { startS: number; endS: number }) =>
    Number((n / Math.max(s.endS - s.startS, 0.001)).toFixed(1));
  const sliceWidth = slices.length
    ? `${formatSeconds(slices[0]!.endS - slices[0]!.startS)} slices`
    : 'no slices';
  return {
    percentiles: lineChart({
      id: 'percentiles',
      title: `Latency percentiles over time (${sliceWidth})`,
      xLabel: 'time since the start of the load (s)',
      yLabel: 'ms',
      xMax,
      series: [percentile('p50'), percentile('p90'), percentile('p99')],
      width,
    }),
    throughput: stackedColumns({
      id: 'throughput',
      title: `Throughput over time (${sliceWidth})`,
      xLabel: 'time since the start of the load (s)',
      yLabel: words.perSecond,
      xMax,
      keys: [
        { name: 'results', color: RESULT_COLOR },
        { name: 'isError', color: TOOL_ERROR_COLOR },
        { name: 'failures', color: FAILURE_COLOR },
      ],
      columns: slices.map((s) => ({
        x0: s.startS,
        x1: s.endS,
        values: [
          perSecond(s.counts.ok, s),
          perSecond(s.counts['tool-error'], s),
          perSecond(
            KINDS.filter((k) => !RESULT_KINDS.includes(k)).reduce((sum, k) => sum + s.counts[k], 0),
            s,
          ),
        ],
      })),
      width,
    }),
    histogram: histogramChart({
      id: 'histogram',
      title: `Latency histogram (${report.requests.toLocaleString('en-US')} ${words.answers}, log scale)`,
      xLabel: 'latency (ms)',
      yLabel: words.answers,
      bins: histogramBins(recorder.latency),
      markers: (['p50', 'p90', 'p99'] as const).map((name) => ({
        name,
        value: report.latencyMs[name],
        color: PERCENTILE_COLORS[name],
      })),
      color: '#93c5fd',
      width,
    }),
  };
}

/** A count's share of a total, for the kinds table: "96.6 %", "<0.1 %", "0 %". */
export function share(count: number, total: number): string {
  if (total === 0) return '–';
  const percent = (count / total) * 100;
  return count > 0 && percent < 0.1 ? '<0.1 %' : `${Number(percent.toFixed(1))} %`;
}

/** Seconds for a label: "100 ms", "1.6 s". */
function formatSeconds(s: number): string {
  return s < 1 ? `${Number((s * 1000).toPrecision(3))} ms` : `${Number(s.toPrecision(3))} s`;
}
