/**
 * The load report as one SVG image (for places that take images, not pages): a header with the verdict and the
 * summary, the three charts stacked, and the counts by kind. Self-contained like the HTML page.
 */
import { KIND_LABELS, parameterRows, reportCharts, share, type RecordedRun } from './report-charts.ts';
import type { OpenFigures } from './run.ts';
import { KINDS } from './samples.ts';
import { escapeXml as esc, formatNumber } from './chart-scale.ts';

const WIDTH = 960;
const CHART_HEIGHT = 300;
const GAP = 16;
const ROW = 20;
/** Characters that fit on a row beside a label (details and parameter values are clipped to them). */
const DETAIL_WIDTH = 85;
const VALUE_WIDTH = 110;

const clip = (text: string, width: number) => (text.length > width ? `${text.slice(0, width)}…` : text);

const text = (x: number, y: number, body: string, attrs = '') =>
  `<text x="${x}" y="${y}"${attrs ? ` ${attrs}` : ''}>${esc(body)}</text>`;

/** The open model's line: what the schedule offered, and what was sent and answered. */
function arrivals(o: OpenFigures): string {
  const count = (n: number) => n.toLocaleString('en-US');
  return (
    `offered ${formatNumber(o.offeredRate)} req/s · ${count(o.scheduled)} scheduled · ${count(o.sent)} sent · ` +
    `${count(o.notSent)} not sent · ${count(o.answered)} answered · achieved ` +
    `${formatNumber(o.achievedRate)} req/s · at most ${count(o.peakInFlight)} in flight`
  );
}

/** Renders a recorded run as a self-contained SVG image. */
export function renderSvgReport(run: RecordedRun): string {
  const { report, recorder } = run;
  const charts = reportCharts(run, WIDTH);
  const l = report.latencyMs;
  const total = KINDS.reduce((sum, k) => sum + recorder.counts[k], 0);

  const parts: string[] = [];
  let y = 30;
  parts.push(text(20, y, `MCP load report: tools/call ${report.tool}`, 'font-size="20" font-weight="700"'));
  parts.push(
    text(
      WIDTH - 20,
      y,
      report.passed ? 'PASS' : 'FAIL',
      `text-anchor="end" font-size="18" font-weight="700" ` +
        `fill="${report.passed ? '#166534' : '#991b1b'}" data-metric="verdict"`,
    ),
  );
  y += 26;
  parts.push(
    text(
      20,
      y,
      `${report.requests.toLocaleString('en-US')} answered in ${report.durationS} s · ` +
        `${formatNumber(report.requestsPerSecond)} req/s${report.open ? ' achieved' : ''} · ` +
        `p50 ${formatNumber(l.p50)} ms · p90 ${formatNumber(l.p90)} ms · p99 ${formatNumber(l.p99)} ms · ` +
        `max ${formatNumber(l.max)} ms`,
      'font-size="15" font-weight="600"',
    ),
  );
  if (report.open) {
    y += 22;
    parts.push(text(20, y, arrivals(report.open), 'font-size="14" data-metric="arrivals"'));
  }
  y += 8;
  for (const [label, value] of parameterRows(run)) {
    y += ROW;
    parts.push(text(20, y, label, 'fill="#6b7280"'), text(140, y, clip(value, VALUE_WIDTH)));
  }
  y += GAP;
  for (const chart of [charts.percentiles, charts.histogram, charts.throughput]) {
    parts.push(`<g transform="translate(0 ${y})">${chart}</g>`);
    y += CHART_HEIGHT + GAP;
  }
  y += ROW;
  parts.push(text(20, y, 'Answers and failures by kind', 'font-size="15" font-weight="600"'));
  for (const kind of KINDS) {
    const count = recorder.counts[kind];
    y += ROW;
    parts.push(
      `<g data-kind="${kind}" data-count="${count}"${count === 0 ? ' fill="#9ca3af"' : ''}>` +
        text(20, y, KIND_LABELS[kind].name) +
        text(250, y, count.toLocaleString('en-US'), 'text-anchor="end"') +
        text(320, y, share(count, total), 'text-anchor="end"') +
        text(
          340,
          y,
          clip(recorder.details[kind] ?? KIND_LABELS[kind].meaning, DETAIL_WIDTH),
          'fill="#6b7280"',
        ) +
        `</g>`,
    );
  }
  y += GAP;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${y}" width="${WIDTH}" height="${y}" ` +
    `font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="13" fill="#1f2937">` +
    `<title>${esc(`MCP load report: tools/call ${report.tool}`)}</title>` +
    `<rect width="${WIDTH}" height="${y}" fill="#ffffff"/>${parts.join('')}</svg>\n`
  );
}
