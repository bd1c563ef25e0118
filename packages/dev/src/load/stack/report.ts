/**
 * The endpoint's side as the reports show it: lines of the text report, and panels of the HTML page (numbers in
 * `data-metric` attributes too). `--json` carries the StackReport itself.
 */
import { escapeXml as esc } from '../chart-scale.ts';
import type { LambdaSide } from './lambda-side.ts';
import type { Concurrency, Throttle } from './limits.ts';
import type { StackReport } from './side.ts';

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });
const orNone = (value: number | null) => (value === null ? 'no data' : n(value));

/** The API in words: its kind, id and stage. */
function apiText(report: StackReport): string {
  const { api } = report;
  return api ? `; ${api.kind === 'http' ? 'HTTP API' : 'REST API'} ${api.id}, stage ${api.stage}` : '';
}

const throttleText = (t: Throttle) =>
  `${n(t.rateLimit)} req/s, bursts ${n(t.burstLimit)} (${t.source === 'stage' ? 'the stage' : 'the account default'})`;

const concurrencyText = (c: Concurrency) =>
  c.reserved !== undefined
    ? `${n(c.reserved)} reserved (the account: ${n(c.account)}, ${n(c.unreserved)} unreserved)`
    : `no reservation: the account's ${n(c.unreserved)} unreserved of ${n(c.account)}`;

/** The window in words: its period and its bounds (UTC, to the minute). */
function windowText(side: LambdaSide): string {
  const minutes = side.window.periodS / 60;
  const at = (iso: string) => iso.slice(0, 16).replace('T', ' ');
  return `one ${minutes}-minute period, ${at(side.window.start)} to ${at(side.window.end).slice(11)} UTC`;
}

/** The Lambda side's rows: [label, text, metric name, value] (value absent when there is none). */
function lambdaRows(side: LambdaSide): [string, string, string, number | undefined][] {
  const rows: [string, string, string, number | undefined][] = [];
  const { metrics: m, initDurations: init } = side;
  if (m) {
    rows.push(
      ['invocations', n(m.invocations), 'lambda-invocations', m.invocations],
      ['errors', n(m.errors), 'lambda-errors', m.errors],
      ['throttles', n(m.throttles), 'lambda-throttles', m.throttles],
      [
        'concurrent executions, most',
        orNone(m.maxConcurrentExecutions),
        'lambda-concurrency',
        m.maxConcurrentExecutions ?? undefined,
      ],
    );
    for (const p of ['p50', 'p90', 'p99', 'max'] as const)
      rows.push([
        `duration ${p}`,
        `${orNone(m.durationMs[p])} ms`,
        `lambda-duration-${p}`,
        m.durationMs[p] ?? undefined,
      ]);
  }
  if (init) {
    rows.push(
      ['cold starts', n(init.count), 'lambda-cold-starts', init.count],
      ['init duration p50', `${orNone(init.p50Ms)} ms`, 'lambda-init-p50', init.p50Ms ?? undefined],
      ['init duration max', `${orNone(init.maxMs)} ms`, 'lambda-init-max', init.maxMs ?? undefined],
    );
  }
  return rows;
}

/** The text report's lines of the endpoint's side. */
export function stackLines(report: StackReport): string[] {
  const { limits } = report;
  const lines = [
    '',
    `  Endpoint side: stack ${report.stack}${report.region ? ` (${report.region})` : ''}`,
    ...(report.functionName ? [`  function      ${report.functionName}${apiText(report)}`] : []),
    ...(limits.throttle ? [`  throttle      ${throttleText(limits.throttle)}`] : []),
    ...(limits.concurrency ? [`  concurrency   ${concurrencyText(limits.concurrency)}`] : []),
    ...(report.expectedMs !== undefined
      ? [`  expected      ${n(report.expectedMs)} ms a call (the preflight's)`]
      : []),
    ...report.warnings.map((w) => `  WARNING       ${w}`),
    ...report.notes.map((note) => `  note          ${note}`),
    ...report.problems.map((p) => `  problem       ${p}`),
  ];
  const side = report.lambda;
  if (!side) return lines;
  const m = side.metrics;
  const init = side.initDurations;
  lines.push('', `  Lambda side: CloudWatch, ${windowText(side)}`);
  if (m) {
    const d = m.durationMs;
    lines.push(
      `  invocations   ${n(m.invocations)}, ${n(m.errors)} errors, ${n(m.throttles)} throttles; ` +
        `at most ${orNone(m.maxConcurrentExecutions)} concurrent executions`,
      `  duration ms   p50 ${orNone(d.p50)}  p90 ${orNone(d.p90)}  p99 ${orNone(d.p99)}  max ${orNone(d.max)}`,
    );
  }
  if (init)
    lines.push(
      `  cold starts   ${n(init.count)}` +
        (init.count > 0 ? `, init ms p50 ${orNone(init.p50Ms)}  max ${orNone(init.maxMs)}` : '') +
        ' (REPORT lines, Logs Insights)',
    );
  lines.push(...side.notes.map((note) => `  note          ${note}`));
  return lines;
}

const list = (cls: string, items: string[]) =>
  items.length ? `<ul class="${cls}">${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>` : '';

const table = (id: string, rows: [string, string, string, number | undefined][]) =>
  `<table id="${id}">${rows
    .map(
      ([label, text, metric, value]) =>
        `<tr><th>${esc(label)}</th><td class="num" data-metric="${metric}"` +
        `${value === undefined ? '' : ` data-value="${value}"`}>${esc(text)}</td></tr>`,
    )
    .join('')}</table>`;

/** The HTML page's panels of the endpoint's side: the limits with their warnings, and the Lambda side. */
export function stackPanels(report: StackReport): string {
  const { limits } = report;
  const rows: [string, string, string, number | undefined][] = [];
  if (report.functionName)
    rows.push(['function', `${report.functionName}${apiText(report)}`, 'function', undefined]);
  if (limits.throttle)
    rows.push(['throttle', throttleText(limits.throttle), 'throttle', limits.throttle.rateLimit]);
  if (limits.concurrency)
    rows.push([
      'concurrency',
      concurrencyText(limits.concurrency),
      'concurrency',
      limits.concurrency.available,
    ]);
  if (report.expectedMs !== undefined)
    rows.push([
      'expected per call',
      `${n(report.expectedMs)} ms (the preflight's)`,
      'expected',
      report.expectedMs,
    ]);
  const endpoint =
    `<section class="panel" id="endpoint-side"><h2>Endpoint side: stack ${esc(report.stack)}` +
    `${report.region ? ` (${esc(report.region)})` : ''}</h2>${table('stack-limits', rows)}` +
    `${list('warnings', report.warnings)}${list('notes', [...report.notes, ...report.problems])}</section>`;
  const side = report.lambda;
  if (!side) return endpoint;
  return (
    `${endpoint}\n<section class="panel" id="lambda-side"><h2>Lambda side</h2>` +
    `<p class="target">CloudWatch, ${esc(windowText(side))}: the run's window widened to whole minutes, so ` +
    `traffic just before or after it counts too.</p>${table('lambda', lambdaRows(side))}` +
    `${list('notes', side.notes)}</section>`
  );
}
