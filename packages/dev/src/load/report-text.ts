import type { LoadReport } from './run.ts';

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The human-readable report of one load run. */
export function formatReport(report: LoadReport): string {
  const o = report.outcomes;
  const lines = [
    `MCP load test: tools/call ${report.tool} → ${report.url}`,
    `  era ${report.era} (${report.protocolVersion}), ${report.connections} connections`,
    '',
    `  requests      ${n(report.requests)} answered in ${report.durationS} s, ${n(report.requestsPerSecond)} req/s`,
    `  latency ms    p50 ${report.latencyMs.p50}  p90 ${report.latencyMs.p90}  p99 ${report.latencyMs.p99}  max ${report.latencyMs.max}`,
    `  results       ${n(o.ok)} ok, ${n(o['tool-error'])} isError`,
    `  failures      ${n(o['rpc-error'])} JSON-RPC errors, ${n(o['non-2xx'])} non-2xx, ${n(o.malformed)} unreadable, ` +
      `${n(report.errors)} transport errors (${n(report.timeouts)} timeouts)`,
  ];
  const samples = Object.entries(report.samples);
  if (samples.length) {
    lines.push('', '  first of each kind:');
    for (const [kind, detail] of samples) lines.push(`    ${kind}: ${detail}`);
  }
  lines.push(
    '',
    report.passed ? '  PASS: every request got a 2xx JSON-RPC result' : '  FAIL: some requests failed',
  );
  return lines.join('\n');
}
