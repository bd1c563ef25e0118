/** The human-readable report of a scenario run on Artillery: the steps table of `npm run load -- --scenario`. */
import { failureLine, stepTable } from '../scenario/report-text.ts';
import type { ArtilleryReport } from './results.ts';

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** What Artillery's virtual users did, and its error counters, in a line or two. */
export function vuserLine(report: ArtilleryReport): string {
  const v = report.vusers;
  const errors = Object.entries(report.errors).map(([error, count]) => `${n(count)} × ${error}`);
  return (
    `${n(v.created)} virtual users created, ${n(v.completed)} completed, ${n(v.failed)} failed, ` +
    `${n(v.skipped)} skipped (maxVusers)${errors.length ? `; errors: ${errors.join(', ')}` : ''}`
  );
}

/** The report of a scenario run on Artillery, for a terminal. */
export function formatArtilleryReport(report: ArtilleryReport): string {
  return [
    `MCP load scenario on Artillery: ${report.scenario} → ${report.url}`,
    `  ${vuserLine(report)}`,
    `  ${n(report.flowRuns)} flow runs, ${n(report.steps.count)} steps, ${n(report.requests)} requests in ` +
      `${report.durationS} s (${n(report.stepsPerSecond)} steps/s)`,
    '',
    ...stepTable(report),
    '',
    failureLine(report.steps),
    '',
    '  not available from Artillery:',
    ...report.notAvailable.map((what) => `    ${what}`),
    '',
    report.passed
      ? '  PASS: every step got its MCP result, every virtual user ran'
      : '  FAIL: some steps failed, or virtual users failed or were skipped',
  ].join('\n');
}
