/** The human-readable report of a scenario run: a table of every step, per flow and for the whole load. */
import { describePhases } from '../schedule.ts';
import { stackLines } from '../stack/report.ts';
import type { Figures, ScenarioReport } from './report.ts';

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

const HEADINGS = ['count', 'ok', 'isError', 'failed', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests'];

/** One row's cells: the figures, then the requests sent (blank for a flow's runs). */
const cells = (figures: Figures, requests?: number): string[] => [
  n(figures.count),
  n(figures.outcomes.ok),
  n(figures.outcomes['tool-error']),
  n(figures.failures),
  n(figures.latencyMs.p50),
  n(figures.latencyMs.p90),
  n(figures.latencyMs.p99),
  n(figures.latencyMs.max),
  requests === undefined ? '' : n(requests),
];

/** What the steps table shows: each flow's runs and steps, and all steps. */
type StepTotals = Pick<ScenarioReport, 'flows' | 'steps' | 'requests'>;

/** The rows of the table: label and cells. */
function rows(report: StepTotals): [string, string[]][] {
  const table: [string, string[]][] = [];
  for (const flow of report.flows) {
    table.push([`${flow.name} (weight ${flow.weight}, ${flow.era}): runs`, cells(flow.runs)]);
    for (const [i, step] of flow.steps.entries())
      table.push([`  ${i + 1}. ${step.step}`, cells(step, step.requests)]);
  }
  table.push(['all steps', cells(report.steps, report.requests)]);
  return table;
}

/** The steps table, a line per row, headings first. */
export function stepTable(report: StepTotals): string[] {
  const body = rows(report);
  const labelWidth = Math.max(...body.map(([label]) => label.length), 'flow / step'.length);
  const widths = HEADINGS.map((h, i) => Math.max(h.length, ...body.map(([, c]) => c[i]!.length)));
  const line = (label: string, values: string[]) =>
    `  ${label.padEnd(labelWidth)}  ${values.map((v, i) => v.padStart(widths[i]!)).join('  ')}`.trimEnd();
  return [line('flow / step', HEADINGS), ...body.map(([label, values]) => line(label, values))];
}

/** The model that ran and what the load did, in a line or two. */
function modelLines(report: ScenarioReport): string[] {
  const done = `${n(report.flowRuns)} flow runs, ${n(report.steps.count)} steps, ${n(report.requests)} requests in ${report.durationS} s (${n(report.stepsPerSecond)} steps/s)`;
  const open = report.open;
  if (!open) return [`  closed model: ${report.connections ?? 0} connections; ${done}`];
  return [
    `  open model: ${describePhases(open.phases)}, at most ${n(open.maxInFlight)} flow runs at once; ${done}`,
    `  arrivals      ${n(open.scheduled)} flow runs scheduled (${n(open.offeredRate)}/s offered), ` +
      `${n(open.started)} started, ${n(open.notStarted)} not started; at most ${n(open.peakInFlight)} at once`,
  ];
}

/** The failures of all steps by kind, in one line. */
export function failureLine(steps: Figures): string {
  const o = steps.outcomes;
  return (
    `  failures      ${n(o['rpc-error'])} JSON-RPC errors, ${n(o['non-2xx'])} non-2xx, ${n(o.malformed)} unreadable, ` +
    `${n(o.timeout + o['transport-error'])} transport errors (${n(o.timeout)} timeouts)`
  );
}

/** The report of a scenario run, for a terminal. */
export function formatScenarioReport(report: ScenarioReport): string {
  const lines = [
    `MCP load scenario: ${report.scenario} → ${report.url}`,
    ...modelLines(report),
    '',
    ...stepTable(report),
    '',
    failureLine(report.steps),
  ];
  const failing = report.flows.flatMap((flow) =>
    flow.steps.flatMap((step) =>
      Object.entries(step.samples).map(
        ([kind, detail]) => `    ${flow.name} / ${step.step}, ${kind}: ${detail}`,
      ),
    ),
  );
  if (failing.length) lines.push('', '  first of each kind, per step:', ...failing);
  if (report.stack) lines.push(...stackLines(report.stack));
  const notStarted = report.open?.notStarted ?? 0;
  lines.push(
    '',
    report.passed
      ? `  PASS: every step${report.open ? ' of every scheduled flow run' : ''} got its MCP result`
      : `  FAIL: some steps failed${notStarted ? ' or flow runs were not started' : ''}`,
  );
  return lines.join('\n');
}
