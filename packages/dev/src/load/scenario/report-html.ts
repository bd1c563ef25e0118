/**
 * The report of a scenario run as one self-contained HTML page, in the single-tool page's style (no scripts,
 * nothing fetched): the verdict, the figures of every step per flow and of each flow's runs, the charts of every
 * step of the load, and the first failure of each kind per step. Numbers sit in `data-*` attributes too.
 */
import { escapeXml as esc, formatNumber } from '../chart-scale.ts';
import { card, STYLE } from '../report-html.ts';
import { KIND_LABELS, reportCharts } from '../report-charts.ts';
import { KINDS, type Kind } from '../samples.ts';
import { describePhases } from '../schedule.ts';
import { stackPanels } from '../stack/report.ts';
import type { ScenarioRecording } from './recording.ts';
import type { Figures, ScenarioReport } from './report.ts';
import type { ScenarioOptions } from './types.ts';

/** Everything the page shows: how the run was asked for, what it measured, and its recording. */
export interface RecordedScenario {
  options: ScenarioOptions;
  report: ScenarioReport;
  recording: ScenarioRecording;
}

const count = (n: number) => n.toLocaleString('en-US');
const ms = (n: number) => formatNumber(n);

const TABLE_STYLE = `
  .wide { overflow-x: auto; }
  #steps { font-size: 12.5px; }
  #steps th, #steps td { padding: 4px 6px; }
  #steps td.flow { font-weight: 600; padding-top: 10px; white-space: nowrap; }
  #steps td.flow small { display: block; font-weight: 400; color: #6b7280; }
  #steps td.step { padding-left: 20px; white-space: nowrap; }
  #steps td.fail { color: #991b1b; font-weight: 600; }
`;

/** The kinds shown as columns of the steps table, in report order, with the short names a column has room for. */
const SHORT: Partial<Record<Kind, string>> = { 'rpc-error': 'JSON-RPC', 'transport-error': 'transport' };
const COLUMNS = KINDS.map((kind) => ({ kind, label: SHORT[kind] ?? KIND_LABELS[kind].name }));

/** One row of the steps table: a flow's runs or a step. */
function row(
  label: string,
  cls: string,
  figures: Figures,
  attrs: string,
  requests?: number,
  note = '',
): string {
  const l = figures.latencyMs;
  const kinds = COLUMNS.map(({ kind }) => {
    const n = figures.outcomes[kind];
    const failing = n > 0 && kind !== 'ok' && kind !== 'tool-error';
    return `<td class="num${failing ? ' fail' : ''}" data-kind="${kind}" data-count="${n}">${count(n)}</td>`;
  }).join('');
  return (
    `<tr ${attrs}><td class="${cls}">${esc(label)}${note ? `<small>${esc(note)}</small>` : ''}</td><td class="num" data-metric="count" data-value="${figures.count}">` +
    `${count(figures.count)}</td>${kinds}` +
    (['p50', 'p90', 'p99', 'max'] as const)
      .map((p) => `<td class="num" data-metric="${p}" data-value="${l[p]}">${ms(l[p])}</td>`)
      .join('') +
    `<td class="num" data-metric="requests"${requests === undefined ? '' : ` data-value="${requests}"`}>` +
    `${requests === undefined ? '' : count(requests)}</td></tr>`
  );
}

function stepsTable(report: Pick<ScenarioReport, 'flows' | 'steps' | 'requests'>): string {
  const heading =
    '<tr><th>flow / step</th><th class="num">count</th>' +
    COLUMNS.map(({ label }) => `<th class="num">${esc(label)}</th>`).join('') +
    '<th class="num">p50 ms</th><th class="num">p90 ms</th><th class="num">p99 ms</th><th class="num">max ms</th>' +
    '<th class="num">requests</th></tr>';
  const rows = report.flows.flatMap((flow) => [
    row(
      flow.name,
      'flow',
      flow.runs,
      `data-flow="${esc(flow.name)}"`,
      undefined,
      `its runs · weight ${flow.weight} · ${flow.era}`,
    ),
    ...flow.steps.map((step, i) =>
      row(
        `${i + 1}. ${step.step}`,
        'step',
        step,
        `data-flow="${esc(flow.name)}" data-step="${esc(step.step)}"`,
        step.requests,
      ),
    ),
  ]);
  rows.push(row('all steps', 'flow', report.steps, 'data-all', report.requests));
  return `<table id="steps">${heading}${rows.join('')}</table>`;
}

/** The first failure of each kind, per step. */
function samplesTable(report: ScenarioReport): string {
  const rows = report.flows.flatMap((flow) =>
    flow.steps.flatMap((step) =>
      Object.entries(step.samples).map(
        ([kind, detail]) =>
          `<tr><td>${esc(flow.name)} / ${esc(step.step)}</td><td>${esc(kind)}</td><td class="detail">${esc(detail)}</td></tr>`,
      ),
    ),
  );
  if (rows.length === 0) return '<p>No step failed, and no step ended with isError.</p>';
  return `<table id="samples"><tr><th>step</th><th>kind</th><th>first seen</th></tr>${rows.join('')}</table>`;
}

function modelText(report: ScenarioReport): string {
  const open = report.open;
  if (!open) return `closed model: ${report.connections ?? 0} connections`;
  return (
    `open model: ${describePhases(open.phases).replaceAll('req/s', 'flow runs/s')}, at most ${count(open.maxInFlight)} at once; ` +
    `${count(open.scheduled)} scheduled, ${count(open.started)} started, ${count(open.notStarted)} not started`
  );
}

function parameters(run: RecordedScenario): [string, string][] {
  const { options, report } = run;
  const auth = options.token ? 'bearer token from --token' : options.scenario.auth?.type;
  const headers = Object.keys({ ...options.scenario.headers, ...options.headers });
  return [
    ['scenario', `${options.scenario.name} (${options.scenario.file})`],
    ['endpoint', options.url],
    ['model', modelText(report)],
    [
      'stop after',
      options.open
        ? 'the schedule'
        : options.amount !== undefined
          ? `${options.amount} flow runs`
          : `${options.durationS} s`,
    ],
    ['timeout', `${options.timeoutS} s per request`],
    ['authorization', auth ? `${auth} (the token is not shown)` : 'none'],
    ['extra headers', headers.length ? `${headers.join(', ')} (values not shown)` : 'none'],
    ['started', run.recording.all.startedAt.toISOString()],
  ];
}

/** What a scenario page shows, whichever engine ran the load. */
export interface ScenarioPage {
  title: string;
  report: Pick<
    ScenarioReport,
    'url' | 'flowRuns' | 'requests' | 'stepsPerSecond' | 'steps' | 'flows' | 'passed'
  >;
  /** The line under the title, after the endpoint: the model and the start. */
  target: string;
  /** Whole sections right after the steps table (the endpoint's side of the run), as HTML. */
  sections?: string;
  /** The panels between the steps table and the parameters (charts, failures…), each its HTML. */
  panels: string[];
  parameters: [string, string][];
  footer: string;
}

/** A scenario report as one self-contained HTML page: the verdict, the cards, the steps table, the panels. */
export function scenarioPage(page: ScenarioPage): string {
  const { report } = page;
  const steps = report.steps;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.title)}</title>
<style>${STYLE}${TABLE_STYLE}</style>
</head>
<body>
<main>
<header><h1>${esc(page.title)}</h1><span class="verdict ${report.passed ? 'pass' : 'fail'}" data-metric="verdict">${
    report.passed ? 'PASS' : 'FAIL'
  }</span></header>
<p class="target"><code>${esc(report.url)}</code> · ${esc(page.target)}</p>
<section class="cards">
${card('flow runs', count(report.flowRuns), 'card-flow-runs')}
${card('steps', count(steps.count), 'card-steps')}
${card('requests', count(report.requests), 'card-requests')}
${card('steps/s', formatNumber(report.stepsPerSecond), 'card-rate')}
${card('step p50', `${ms(steps.latencyMs.p50)} ms`, 'card-p50')}
${card('step p99', `${ms(steps.latencyMs.p99)} ms`, 'card-p99')}
${card('failed steps', count(steps.failures), 'card-failures')}
</section>
<section class="panel wide"><h2>Steps, per flow</h2>${stepsTable(report)}</section>
${page.sections ?? ''}
${page.panels.map((panel) => `<section class="panel">${panel}</section>`).join('\n')}
<section class="panel"><h2>Parameters</h2><table id="parameters">${page.parameters
    .map(([label, value]) => `<tr><th>${esc(label)}</th><td>${esc(value)}</td></tr>`)
    .join('')}</table></section>
<footer>${page.footer}</footer>
</main>
</body>
</html>
`;
}

/** Renders a recorded scenario run as a self-contained HTML page. */
export function renderScenarioHtml(run: RecordedScenario): string {
  const { report, recording } = run;
  const steps = report.steps;
  const answered = steps.count - steps.outcomes.timeout - steps.outcomes['transport-error'];
  const charts = reportCharts(
    { recorder: recording.all, report: { requests: answered, latencyMs: steps.latencyMs } },
    960,
    { perSecond: 'steps/s', answers: 'steps' },
  );
  return scenarioPage({
    title: `MCP load scenario: ${report.scenario}`,
    report,
    target: `${modelText(report)} · started ${recording.all.startedAt.toISOString()}`,
    ...(report.stack ? { sections: stackPanels(report.stack) } : {}),
    panels: [
      charts.percentiles,
      charts.histogram,
      charts.throughput,
      `<h2>First of each kind, per step</h2>${samplesTable(report)}`,
    ],
    parameters: parameters(run),
    footer: `Recorded by <code>npm run load -- --scenario</code>. A step's latency runs from its start to its last answer
(every page, poll or round of questions it took; think times apart); a flow run's from its start to its end, think
times included. In the open model a flow run's first step is timed from its intended start. Latencies are kept in
log buckets 2 % wide: a percentile is never below the exact value, at most 2 % above it.`,
  });
}
