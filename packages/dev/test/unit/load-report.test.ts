import { readFileSync } from 'node:fs';
import { parse, parseFragment, type DefaultTreeAdapterTypes, type ParserError } from 'parse5';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoadOptions } from '../../src/load/options.ts';
import type { RecordedRun } from '../../src/load/report-charts.ts';
import { renderHtmlReport } from '../../src/load/report-html.ts';
import { renderSvgReport } from '../../src/load/report-svg.ts';
import { summarize } from '../../src/load/run.ts';
import { KINDS, RunRecorder, type Kind } from '../../src/load/samples.ts';

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.ParentNode;
type Element = DefaultTreeAdapterTypes.Element;

const FIXTURES = new URL('./fixtures/', import.meta.url);

/** One request of the recorded run: when it ended (ms since the start), its kind, its latency if answered. */
interface Row {
  atMs: number;
  kind: Kind;
  latencyMs?: number;
}

const meta = JSON.parse(readFileSync(new URL('recorded-run.json', FIXTURES), 'utf8')) as {
  options: LoadOptions;
  protocolVersion: string;
  startedAt: string;
  details: Partial<Record<Kind, string>>;
};
const rows: Row[] = readFileSync(new URL('recorded-run.csv', FIXTURES), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [at, kind, latency] = line.split(',');
    return { atMs: Number(at), kind: kind as Kind, ...(latency ? { latencyMs: Number(latency) } : {}) };
  });

/** Replays the recorded requests into a recorder, as the load command filed them. */
function replay(): RecordedRun {
  const recorder = new RunRecorder();
  recorder.startedAt = new Date(meta.startedAt);
  for (const row of rows) recorder.record(row.atMs, row.kind, row.latencyMs, meta.details[row.kind]);
  const report = summarize(recorder, {
    url: meta.options.url,
    tool: meta.options.tool,
    era: meta.options.era,
    protocolVersion: meta.protocolVersion,
    connections: meta.options.connections,
  });
  return { options: meta.options, report, recorder };
}

/** The exact nearest-rank percentile. */
function exactPercentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

/** A reported percentile is the bucket's upper edge, rounded to 0.01 ms: within [exact, exact · 1.02]. */
function expectPercentile(reported: number, exact: number): void {
  expect(reported).toBeGreaterThanOrEqual(exact - 0.005);
  expect(reported).toBeLessThanOrEqual(exact * 1.02 + 0.005);
}

function* walk(node: Node): Generator<Element> {
  if ('tagName' in node) yield node;
  if ('childNodes' in node) for (const child of node.childNodes) yield* walk(child);
  if ('content' in node) yield* walk(node.content);
}

const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const num = (el: Element, name: string) => Number(attr(el, name));
const textOf = (node: Node): string =>
  'value' in node && node.nodeName === '#text'
    ? node.value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';
const all = (root: Node, test: (el: Element) => boolean) => [...walk(root)].filter(test);
const one = (root: Node, test: (el: Element) => boolean) => {
  const found = all(root, test);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const chart = (root: Node, id: string) => one(root, (el) => attr(el, 'data-chart') === id);

const answered = rows.filter((r) => r.latencyMs !== undefined);
const latencies = answered.map((r) => r.latencyMs!);

describe('the HTML load report of a recorded run', () => {
  let html: string;
  let doc: DefaultTreeAdapterTypes.Document;
  const errors: ParserError[] = [];

  beforeAll(() => {
    html = renderHtmlReport(replay());
    doc = parse(html, { onParseError: (error) => errors.push(error) });
  });

  it('is valid HTML', () => {
    expect(errors).toEqual([]);
  });

  it('fetches nothing and runs nothing: no scripts, no links, no external references', () => {
    expect(
      all(doc, (el) => ['script', 'link', 'img', 'iframe', 'object', 'embed'].includes(el.tagName)),
    ).toEqual([]);
    expect(all(doc, (el) => el.attrs.some((a) => ['src', 'href', 'xlink:href'].includes(a.name)))).toEqual(
      [],
    );
    const style = textOf(one(doc, (el) => el.tagName === 'style'));
    expect(style).not.toMatch(/url\(|@import/);
  });

  it('shows the run-wide percentiles computed from the samples', () => {
    for (const p of [50, 90, 99]) {
      const cell = one(doc, (el) => el.tagName === 'td' && attr(el, 'data-metric') === `p${p}`);
      expectPercentile(num(cell, 'data-value'), exactPercentile(latencies, p));
      expect(textOf(cell)).toMatch(/^\d+(\.\d+)? ms$/);
    }
    const max = one(doc, (el) => el.tagName === 'td' && attr(el, 'data-metric') === 'max');
    expect(num(max, 'data-value')).toBeCloseTo(Math.max(...latencies), 2);
  });

  it('computes the rate from the real elapsed time of the run', () => {
    const rate = one(doc, (el) => el.tagName === 'td' && attr(el, 'data-metric') === 'rate');
    const elapsedS = Math.max(...rows.map((r) => r.atMs)) / 1000;
    expect(num(rate, 'data-value')).toBeCloseTo(answered.length / elapsedS, 1);
    expect(
      num(
        one(doc, (el) => el.tagName === 'td' && attr(el, 'data-metric') === 'requests'),
        'data-value',
      ),
    ).toBe(answered.length);
  });

  it('draws a histogram whose bars count the samples between their edges', () => {
    const bars = all(
      chart(doc, 'histogram'),
      (el) => el.tagName === 'rect' && attr(el, 'data-count') !== undefined,
    );
    expect(bars.length).toBeGreaterThan(10);
    expect(bars.length).toBeLessThanOrEqual(40);
    for (const [i, bar] of bars.entries()) {
      const from = num(bar, 'data-from');
      const to = num(bar, 'data-to');
      if (i > 0) expect(from).toBe(num(bars[i - 1]!, 'data-to'));
      expect(num(bar, 'data-count')).toBe(latencies.filter((ms) => ms > from && ms <= to).length);
    }
    expect(bars.reduce((sum, bar) => sum + num(bar, 'data-count'), 0)).toBe(latencies.length);
    // Heights are proportional to the counts.
    const perAnswer = bars.map((bar) => num(bar, 'height') / Math.max(num(bar, 'data-count'), 1));
    const tallest = bars.reduce((a, b) => (num(b, 'data-count') > num(a, 'data-count') ? b : a));
    for (const [i, bar] of bars.entries()) {
      if (num(bar, 'data-count') > 0) expect(perAnswer[i]).toBeCloseTo(perAnswer[bars.indexOf(tallest)]!, 1);
    }
  });

  it('marks p50, p90 and p99 on the histogram', () => {
    const markers = all(chart(doc, 'histogram'), (el) => attr(el, 'data-marker') !== undefined);
    expect(markers.map((m) => attr(m, 'data-marker'))).toEqual(['p50', 'p90', 'p99']);
    for (const marker of markers) {
      const p = Number(attr(marker, 'data-marker')!.slice(1));
      expectPercentile(num(marker, 'data-value'), exactPercentile(latencies, p));
    }
  });

  it('draws p50, p90 and p99 per time slice, from the samples that ended in each slice', () => {
    const root = chart(doc, 'percentiles');
    const slices = all(chart(doc, 'throughput'), (el) => attr(el, 'data-key') === 'results').map((el) => ({
      x0: num(el, 'data-x0'),
      x1: num(el, 'data-x1'),
    }));
    expect(slices.length).toBeGreaterThan(5);
    const lastX1 = Math.max(...slices.map((s) => s.x1));
    // Compare in whole microseconds: slice edges are whole milliseconds, sample times tenths of one.
    const us = (s: number) => Math.round(s * 1e6);
    for (const p of [50, 90, 99]) {
      const points = all(root, (el) => el.tagName === 'circle' && el.parentNode !== null).filter(
        (el) => attr(el.parentNode as Element, 'data-series') === `p${p}`,
      );
      for (const slice of slices) {
        const inSlice = answered
          .filter((r) => {
            const at = us(r.atMs / 1000);
            return at >= us(slice.x0) && (at < us(slice.x1) || slice.x1 === lastX1);
          })
          .map((r) => r.latencyMs!);
        const point = points.find((el) => Math.abs(num(el, 'data-x') - (slice.x0 + slice.x1) / 2) < 1e-9);
        expect(point, `p${p} at ${slice.x0}-${slice.x1} s`).toBeDefined();
        expectPercentile(num(point!, 'data-y'), exactPercentile(inSlice, p));
      }
    }
  });

  it('leaves a gap in the lines where no answer arrived', () => {
    // The recorded run waited 1 s for the 600th answer: three connections were done, the fourth was waiting.
    const throughputSlices = all(chart(doc, 'throughput'), (el) => attr(el, 'data-key') === 'results').length;
    const p50 = all(chart(doc, 'percentiles'), (el) => attr(el, 'data-series') === 'p50')[0]!;
    const dots = all(p50, (el) => el.tagName === 'circle');
    expect(dots).toHaveLength(throughputSlices);
    const path = attr(
      one(p50, (el) => el.tagName === 'path'),
      'd',
    )!;
    expect(path.match(/M/g)!.length).toBeGreaterThan(1);
  });

  it('counts every kind of answer and failure, with the first detail of each', () => {
    const expected = Object.fromEntries(KINDS.map((k) => [k, rows.filter((r) => r.kind === k).length]));
    expect(expected).toMatchObject({ 'tool-error': 23, 'non-2xx': 12, 'rpc-error': 5, timeout: 1 });
    for (const kind of KINDS) {
      const row = one(doc, (el) => el.tagName === 'tr' && attr(el, 'data-kind') === kind);
      const cells = all(row, (el) => el.tagName === 'td');
      expect(num(cells[2]!, 'data-count')).toBe(expected[kind]);
      expect(textOf(cells[4]!)).toBe(meta.details[kind] ?? '');
    }
    const failures = rows.filter((r) => !['ok', 'tool-error'].includes(r.kind)).length;
    expect(
      num(
        one(doc, (el) => el.tagName === 'td' && attr(el, 'data-metric') === 'failures'),
        'data-value',
      ),
    ).toBe(failures);
    expect(textOf(one(doc, (el) => attr(el, 'data-metric') === 'verdict'))).toBe('FAIL');
  });

  it('lists the parameters without secrets', () => {
    const table = textOf(one(doc, (el) => attr(el, 'id') === 'parameters'));
    expect(table).toContain('1200 requests');
    expect(table).toContain('handshake (2025-11-25)');
    expect(table).toMatch(/authorization\s*none/);
    const withToken = renderHtmlReport({
      ...replay(),
      options: { ...meta.options, token: 'secret-token-value', headers: { 'x-api-key': 'secret-key-value' } },
    });
    expect(withToken).not.toContain('secret-token-value');
    expect(withToken).not.toContain('secret-key-value');
    expect(withToken).toContain('x-api-key (values not shown)');
  });
});

describe('the SVG load report of a recorded run', () => {
  it('holds the same percentiles, histogram and counts in one image', () => {
    const svg = renderSvgReport(replay());
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const root = parseFragment(svg);
    expect(all(root, (el) => el.tagName === 'script')).toEqual([]);
    expect(
      all(root, (el) => attr(el, 'data-chart') !== undefined).map((el) => attr(el, 'data-chart')),
    ).toEqual(['percentiles', 'histogram', 'throughput']);
    const bars = all(chart(root, 'histogram'), (el) => attr(el, 'data-count') !== undefined);
    expect(bars.reduce((sum, bar) => sum + num(bar, 'data-count'), 0)).toBe(latencies.length);
    const markers = all(root, (el) => attr(el, 'data-marker') !== undefined);
    for (const marker of markers) {
      const p = Number(attr(marker, 'data-marker')!.slice(1));
      expectPercentile(num(marker, 'data-value'), exactPercentile(latencies, p));
    }
    for (const kind of KINDS) {
      const group = one(root, (el) => el.tagName === 'g' && attr(el, 'data-kind') === kind);
      expect(num(group, 'data-count')).toBe(rows.filter((r) => r.kind === kind).length);
    }
  });
});
