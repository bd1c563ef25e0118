/**
 * The load report as one self-contained HTML page: inline CSS and inline SVG charts, no scripts and nothing
 * fetched, so it opens offline, attaches to a review and prints. Numbers sit in `data-metric` / `data-kind`
 * attributes as well as in the text.
 */
import {
  arrivalRows,
  KIND_LABELS,
  modelSummary,
  parameterRows,
  reportCharts,
  share,
  type RecordedRun,
} from './report-charts.ts';
import { KINDS } from './samples.ts';
import { escapeXml as esc, formatNumber } from './chart-scale.ts';
import { stackPanels } from './stack/report.ts';

/** The page's style, which the scenario report shares. */
export const STYLE = `
  :root { color-scheme: light; }
  body { margin: 0; background: #f3f4f6; color: #1f2937; font: 14px/1.45 system-ui, -apple-system, "Segoe UI",
    Roboto, sans-serif; }
  main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 40px; }
  header { display: flex; align-items: center; gap: 16px; }
  h1 { font-size: 22px; margin: 0; }
  h2 { font-size: 16px; margin: 0 0 10px; }
  .target { color: #4b5563; margin: 4px 0 18px; overflow-wrap: anywhere; }
  code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
  .verdict { padding: 3px 12px; border-radius: 999px; font-weight: 700; font-size: 13px; letter-spacing: .04em; }
  .pass { background: #dcfce7; color: #166534; }
  .fail { background: #fee2e2; color: #991b1b; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; margin-bottom: 16px; }
  .card, .panel { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; }
  .card { padding: 12px 14px; }
  .card .value { font-size: 24px; font-weight: 650; }
  .card .label { color: #6b7280; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; }
  .panel { padding: 16px; margin-bottom: 16px; }
  .tables { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
  @media (max-width: 760px) { .tables { grid-template-columns: 1fr; } }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #f0f1f3; vertical-align: top; }
  th { color: #6b7280; font-weight: 500; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  #kinds td:first-child { white-space: nowrap; }
  tr.zero td { color: #9ca3af; }
  .detail { overflow-wrap: anywhere; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
  svg { display: block; width: 100%; height: auto; }
  footer { color: #6b7280; font-size: 12px; }
  ul.warnings { color: #92400e; font-weight: 600; padding-left: 18px; }
  ul.notes { color: #4b5563; padding-left: 18px; }
`;

/** A figure in a card of its own. */
export const card = (label: string, value: string, metric: string) =>
  `<div class="card"><div class="value" data-metric="${metric}">${esc(value)}</div>` +
  `<div class="label">${esc(label)}</div></div>`;

const ms = (value: number) => `${formatNumber(value)} ms`;

const OPEN_NOTE =
  "Open model: each request's latency is timed from its intended start, so a wait for the server (or for this " +
  'machine) is in it.';
const CLOSED_NOTE =
  'Closed model: each connection sends its next request when its answer arrived, so the server sets the pace.';

/** The failed requests (and, in the open model, those not sent) and what the page calls them. */
function failuresOf(run: RecordedRun): { failures: number; failed: string; total: number } {
  const { report, recorder } = run;
  const total = KINDS.reduce((sum, k) => sum + recorder.counts[k], 0);
  // A request the open model could not send fails the run as a failed one does.
  const failures = total - recorder.counts.ok - recorder.counts['tool-error'] + (report.open?.notSent ?? 0);
  return { failures, failed: report.open ? 'failed or not sent' : 'failed', total };
}

/** The summary table's rows: [label, shown text, metric name, exact value]. */
function summaryRows(run: RecordedRun): [string, string, string, number][] {
  const { report } = run;
  const l = report.latencyMs;
  const { failures, failed } = failuresOf(run);
  return [
    ...(report.open ? arrivalRows(report.open) : []),
    ['requests answered', report.requests.toLocaleString('en-US'), 'requests', report.requests],
    ['elapsed', `${report.durationS} s`, 'duration', report.durationS],
    [
      report.open ? 'achieved rate' : 'throughput',
      `${formatNumber(report.requestsPerSecond)} req/s`,
      'rate',
      report.requestsPerSecond,
    ],
    ['latency p50', ms(l.p50), 'p50', l.p50],
    ['latency p90', ms(l.p90), 'p90', l.p90],
    ['latency p99', ms(l.p99), 'p99', l.p99],
    ['latency max', ms(l.max), 'max', l.max],
    ['latency mean', ms(l.mean), 'mean', l.mean],
    [`${failed} requests`, failures.toLocaleString('en-US'), 'failures', failures],
  ];
}

/** Renders a recorded run as a self-contained HTML page. */
export function renderHtmlReport(run: RecordedRun): string {
  const { report, recorder } = run;
  const charts = reportCharts(run);
  const l = report.latencyMs;
  const { failures, failed, total } = failuresOf(run);
  const summary = summaryRows(run);
  const kinds = KINDS.map((kind) => {
    const count = recorder.counts[kind];
    return (
      `<tr data-kind="${kind}"${count === 0 ? ' class="zero"' : ''}><td>${esc(KIND_LABELS[kind].name)}</td>` +
      `<td>${esc(KIND_LABELS[kind].meaning)}</td><td class="num" data-count="${count}">` +
      `${count.toLocaleString('en-US')}</td><td class="num">${esc(share(count, total))}</td>` +
      `<td class="detail">${esc(recorder.details[kind] ?? '')}</td></tr>`
    );
  }).join('');
  const title = `MCP load report: tools/call ${report.tool}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><h1>${esc(title)}</h1><span class="verdict ${report.passed ? 'pass' : 'fail'}" data-metric="verdict">${
    report.passed ? 'PASS' : 'FAIL'
  }</span></header>
<p class="target"><code>${esc(report.url)}</code> · ${esc(report.era)} era · ${esc(modelSummary(report))} · started ${esc(
    recorder.startedAt.toISOString(),
  )}</p>
<section class="cards">
${report.open ? card('offered req/s', formatNumber(report.open.offeredRate), 'card-offered-rate') : ''}
${card('answered', report.requests.toLocaleString('en-US'), 'card-requests')}
${card(report.open ? 'achieved req/s' : 'req/s', formatNumber(report.requestsPerSecond), 'card-rate')}
${card('p50', ms(l.p50), 'card-p50')}
${card('p99', ms(l.p99), 'card-p99')}
${card(failed, failures.toLocaleString('en-US'), 'card-failures')}
</section>
<section class="tables">
<div class="panel"><h2>Summary</h2><table id="summary">${summary
    .map(
      ([label, text, metric, value]) =>
        `<tr><th>${label}</th><td class="num" data-metric="${metric}" data-value="${value}">${esc(text)}</td></tr>`,
    )
    .join('')}</table></div>
<div class="panel"><h2>Parameters</h2><table id="parameters">${parameterRows(run)
    .map(([label, value]) => `<tr><th>${esc(label)}</th><td>${esc(value)}</td></tr>`)
    .join('')}</table></div>
</section>
${report.stack ? stackPanels(report.stack) : ''}
<section class="panel">${charts.percentiles}</section>
<section class="panel">${charts.histogram}</section>
<section class="panel">${charts.throughput}</section>
<section class="panel"><h2>Answers and failures by kind</h2>
<table id="kinds"><tr><th>kind</th><th>meaning</th><th class="num">count</th><th class="num">share</th><th>first seen</th></tr>${kinds}</table>
</section>
<footer>Recorded by <code>npm run load</code>. Latencies are kept in log buckets 2 % wide (per time slice and for the
whole run), so memory stays bounded on long runs; a percentile is reported as its bucket's upper edge: never below
the exact value, at most 2 % above it. Times are from a monotonic high-resolution clock; each request is filed when
its answer arrived. ${report.open ? OPEN_NOTE : CLOSED_NOTE}</footer>
</main>
</body>
</html>
`;
}
