import { modelSummary } from './report-charts.ts';
import type { LoadReport, OpenFigures } from './run.ts';
import { stackLines } from './stack/report.ts';

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The open model's lines: what the schedule offered, and what was sent. */
const arrivalLines = (open: OpenFigures): string[] => [
  `  arrivals      ${n(open.scheduled)} scheduled (${n(open.offeredRate)} req/s offered), ${n(open.sent)} sent ` +
    `(${n(open.sentRate)} req/s), ${n(open.notSent)} not sent; at most ${n(open.peakInFlight)} in flight`,
  ...(open.notSent > 0
    ? [`  not sent      ${n(open.notSent)} came due while ${n(open.maxInFlight)} waited (--max-in-flight)`]
    : []),
];

/** The human-readable report of one load run. */
export function formatReport(report: LoadReport): string {
  const o = report.outcomes;
  const l = report.latencyMs;
  const rate = `${n(report.requestsPerSecond)} req/s${report.open ? ' achieved' : ''}`;
  const timed = report.open ? "  (from each request's intended start)" : '';
  const lines = [
    `MCP load test: tools/call ${report.tool} → ${report.url}`,
    `  era ${report.era} (${report.protocolVersion}), ${modelSummary(report)}`,
    '',
    ...(report.open ? arrivalLines(report.open) : []),
    `  requests      ${n(report.requests)} answered in ${report.durationS} s, ${rate}`,
    `  latency ms    p50 ${l.p50}  p90 ${l.p90}  p99 ${l.p99}  max ${l.max}${timed}`,
    `  results       ${n(o.ok)} ok, ${n(o['tool-error'])} isError`,
    `  failures      ${n(o['rpc-error'])} JSON-RPC errors, ${n(o['non-2xx'])} non-2xx, ${n(o.malformed)} unreadable, ` +
      `${n(report.errors)} transport errors (${n(report.timeouts)} timeouts)`,
  ];
  const samples = Object.entries(report.samples);
  if (samples.length) {
    lines.push('', '  first of each kind:');
    for (const [kind, detail] of samples) lines.push(`    ${kind}: ${detail}`);
  }
  if (report.stack) lines.push(...stackLines(report.stack));
  const verdict = report.passed
    ? `  PASS: every request${report.open ? ' was sent and' : ''} got a 2xx JSON-RPC result`
    : `  FAIL: some requests failed${report.open?.notSent ? ' or were not sent' : ''}`;
  lines.push('', verdict);
  return lines.join('\n');
}
