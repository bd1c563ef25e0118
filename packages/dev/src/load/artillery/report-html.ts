/**
 * The report of a scenario run on Artillery as the same self-contained HTML page `npm run load -- --scenario`
 * writes: the verdict, the cards and the steps table, from Artillery's JSON. Where the built-in page draws its
 * charts from every step's latency, this one shows Artillery's 10-second periods, and says what is not available.
 */
import { escapeXml as esc, formatNumber } from '../chart-scale.ts';
import { scenarioPage } from '../scenario/report-html.ts';
import type { ArtilleryReport } from './results.ts';
import { vuserLine } from './report-text.ts';

const count = (n: number) => n.toLocaleString('en-US');

function periodsTable(report: ArtilleryReport): string {
  const rows = report.periods.map(
    (p) =>
      `<tr data-period="${p.startS}"><td class="num">${formatNumber(p.startS)}</td>` +
      `<td class="num" data-metric="steps" data-value="${p.steps}">${count(p.steps)}</td>` +
      `<td class="num" data-metric="failures" data-value="${p.failures}">${count(p.failures)}</td>` +
      `<td class="num" data-metric="p50" data-value="${p.p50}">${formatNumber(p.p50)}</td>` +
      `<td class="num" data-metric="p99" data-value="${p.p99}">${formatNumber(p.p99)}</td></tr>`,
  );
  return (
    '<h2>Over time, by Artillery’s periods</h2><table id="periods"><tr><th class="num">from s</th>' +
    '<th class="num">steps</th><th class="num">failed</th><th class="num">p50 ms</th><th class="num">p99 ms</th></tr>' +
    `${rows.join('')}</table>`
  );
}

/** Renders the report of a scenario run on Artillery as a self-contained HTML page. */
export function renderArtilleryHtml(report: ArtilleryReport): string {
  return scenarioPage({
    title: `MCP load scenario on Artillery: ${report.scenario}`,
    report,
    target: `${vuserLine(report)} · started ${report.startedAt}`,
    panels: [
      periodsTable(report),
      `<h2>Not available from Artillery</h2><ul id="not-available">${report.notAvailable
        .map((what) => `<li>${esc(what)}</li>`)
        .join('')}</ul>`,
    ],
    parameters: [
      ['scenario', `${report.scenario} (${report.file})`],
      ['endpoint', report.url],
      ['engine', 'Artillery: artillery run --output, read by npm run load -- --from-artillery'],
      ['started', report.startedAt],
      ['duration', `${report.durationS} s from the first metric to the last`],
    ],
    footer: `Run by Artillery with the processor of <code>npm run load -- --emit artillery</code>, which runs each
step with the code of <code>npm run load -- --scenario</code>. A step's latency runs from its start to its last answer
(every page, poll or round of questions it took; think times apart); a flow run's from its start to its end, think
times included, each from when Artillery started its virtual user. Percentiles are Artillery's, from its histograms
(about 1 % accurate).`,
  });
}
