/**
 * A small SVG chart renderer for the load report: line charts, stacked columns and a histogram on a log axis.
 * Output is plain SVG with no scripts, no fonts to fetch and no styles outside the element, so it reads the same
 * inline in a page or as a file on its own. Every mark carries its numbers in `data-*` attributes and a `<title>`
 * (the browser's hover text), so tests and readers get exact values rather than pixel positions.
 */

import { escapeXml, formatNumber, formatTick, linearTicks, logTicks, ticksWithin } from './chart-scale.ts';

const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';
const INK = '#1f2937';
const MUTED = '#6b7280';
const GRID = '#e5e7eb';

/** Size and inner margins of one chart. */
interface Frame {
  width: number;
  height: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
}

const frameOf = (width: number, height: number): Frame => ({
  width,
  height,
  top: 44,
  right: 20,
  bottom: 46,
  left: 64,
});

const plotWidth = (f: Frame) => f.width - f.left - f.right;
const plotHeight = (f: Frame) => f.height - f.top - f.bottom;
const fixed = (n: number) => Number(n.toFixed(2));

/** What every chart has: the outer element, a title, axis labels, y grid lines and a legend. */
function chart(
  f: Frame,
  options: { id: string; title: string; xLabel: string; yLabel: string; yTicks: number[] },
  legend: { name: string; color: string }[],
  body: string,
  xAxis: string,
): string {
  const yMax = options.yTicks.at(-1)!;
  const y = (v: number) => fixed(f.top + plotHeight(f) - (v / yMax) * plotHeight(f));
  const grid = options.yTicks
    .map(
      (t) =>
        `<line x1="${f.left}" x2="${f.width - f.right}" y1="${y(t)}" y2="${y(t)}" stroke="${GRID}"/>` +
        `<text x="${f.left - 8}" y="${y(t) + 4}" text-anchor="end" fill="${MUTED}">${formatTick(t)}</text>`,
    )
    .join('');
  let x = f.width - f.right;
  const keys = [...legend]
    .reverse()
    .map(({ name, color }) => {
      x -= name.length * 7 + 30;
      return (
        `<rect x="${x}" y="14" width="12" height="12" rx="2" fill="${color}"/>` +
        `<text x="${x + 17}" y="24" fill="${INK}">${escapeXml(name)}</text>`
      );
    })
    .join('');
  const plotMiddleY = f.top + plotHeight(f) / 2;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${f.width} ${f.height}" width="${f.width}" ` +
    `height="${f.height}" role="img" aria-label="${escapeXml(options.title)}" data-chart="${options.id}" ` +
    `font-family="${FONT}" font-size="12">` +
    `<title>${escapeXml(options.title)}</title>` +
    `<rect width="${f.width}" height="${f.height}" fill="#ffffff"/>` +
    `<text x="${f.left}" y="25" font-size="15" font-weight="600" fill="${INK}">${escapeXml(options.title)}</text>` +
    keys +
    grid +
    body +
    `<line x1="${f.left}" x2="${f.width - f.right}" y1="${y(0)}" y2="${y(0)}" stroke="${MUTED}"/>` +
    xAxis +
    `<text x="${f.left + plotWidth(f) / 2}" y="${f.height - 8}" text-anchor="middle" fill="${MUTED}">` +
    `${escapeXml(options.xLabel)}</text>` +
    `<text transform="translate(16 ${plotMiddleY}) rotate(-90)" text-anchor="middle" fill="${MUTED}">` +
    `${escapeXml(options.yLabel)}</text>` +
    `</svg>`
  );
}

function xTicks(f: Frame, ticks: number[], x: (v: number) => number, unit = ''): string {
  const base = f.top + plotHeight(f);
  return ticks
    .map(
      (t) =>
        `<line x1="${fixed(x(t))}" x2="${fixed(x(t))}" y1="${base}" y2="${base + 5}" stroke="${MUTED}"/>` +
        `<text x="${fixed(x(t))}" y="${base + 18}" text-anchor="middle" fill="${MUTED}">${formatTick(t)}${unit}</text>`,
    )
    .join('');
}

/** One line of a line chart; a point with `y` undefined breaks the line (a slice with no data). */
export interface Series {
  /** Short name, also the `data-series` attribute. */
  name: string;
  color: string;
  points: { x: number; y: number | undefined }[];
}

/** A line chart over a linear x axis from 0 to `xMax`, with a dot on every point. */
export function lineChart(options: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xMax: number;
  series: Series[];
  width?: number;
  height?: number;
}): string {
  const f = frameOf(options.width ?? 960, options.height ?? 300);
  const values = options.series.flatMap((s) => s.points.map((p) => p.y ?? 0));
  const yTicks = linearTicks(Math.max(0, ...values));
  const yMax = yTicks.at(-1)!;
  const xMax = options.xMax;
  const x = (v: number) => f.left + (v / xMax) * plotWidth(f);
  const y = (v: number) => f.top + plotHeight(f) - (v / yMax) * plotHeight(f);
  const body = options.series
    .map((s) => {
      let path = '';
      let pen = 'M';
      const dots: string[] = [];
      for (const p of s.points) {
        if (p.y === undefined) {
          pen = 'M';
          continue;
        }
        path += `${pen}${fixed(x(p.x))} ${fixed(y(p.y))}`;
        pen = 'L';
        dots.push(
          `<circle cx="${fixed(x(p.x))}" cy="${fixed(y(p.y))}" r="2.5" fill="${s.color}" data-x="${p.x}" ` +
            `data-y="${p.y}"><title>${escapeXml(s.name)} ${formatNumber(p.y)} ${escapeXml(options.yLabel)} ` +
            `at ${formatNumber(p.x)} s</title></circle>`,
        );
      }
      return (
        `<g data-series="${escapeXml(s.name)}">` +
        (path ? `<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"/>` : '') +
        dots.join('') +
        `</g>`
      );
    })
    .join('');
  return chart(f, { ...options, yTicks }, options.series, body, xTicks(f, ticksWithin(xMax), x, ' s'));
}

/** One column of a stacked column chart: its x span and one value per key, bottom to top. */
export interface Column {
  x0: number;
  x1: number;
  values: number[];
}

/** Stacked columns over a linear x axis from 0 to `xMax`. */
export function stackedColumns(options: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xMax: number;
  keys: { name: string; color: string }[];
  columns: Column[];
  width?: number;
  height?: number;
}): string {
  const f = frameOf(options.width ?? 960, options.height ?? 300);
  const yTicks = linearTicks(Math.max(0, ...options.columns.map((c) => c.values.reduce((a, b) => a + b, 0))));
  const yMax = yTicks.at(-1)!;
  const xMax = options.xMax;
  const x = (v: number) => f.left + (v / xMax) * plotWidth(f);
  const h = (v: number) => (v / yMax) * plotHeight(f);
  const body = options.columns
    .map((c) => {
      let base = f.top + plotHeight(f);
      const left = x(c.x0) + 0.5;
      const width = Math.max(1, x(c.x1) - x(c.x0) - 1);
      return c.values
        .map((v, i) => {
          const key = options.keys[i]!;
          base -= h(v);
          return v <= 0
            ? ''
            : `<rect x="${fixed(left)}" y="${fixed(base)}" width="${fixed(width)}" height="${fixed(h(v))}" ` +
                `fill="${key.color}" data-key="${escapeXml(key.name)}" data-x0="${c.x0}" data-x1="${c.x1}" ` +
                `data-value="${v}"><title>${formatNumber(c.x0)}–${formatNumber(c.x1)} s: ${formatNumber(v)} ` +
                `${escapeXml(options.yLabel)} ${escapeXml(key.name)}</title></rect>`;
        })
        .join('');
    })
    .join('');
  return chart(f, { ...options, yTicks }, options.keys, body, xTicks(f, ticksWithin(xMax), x, ' s'));
}

/** One histogram bar: the values in (from, to]. */
export interface Bin {
  from: number;
  to: number;
  count: number;
}

/** A histogram on a log x axis, with labelled vertical markers (the percentiles). */
export function histogramChart(options: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  bins: Bin[];
  markers: { name: string; value: number; color: string }[];
  color: string;
  width?: number;
  height?: number;
}): string {
  const f = frameOf(options.width ?? 960, options.height ?? 300);
  const bins = options.bins;
  const lo = bins[0]?.from ?? 1;
  const hi = bins.at(-1)?.to ?? 10;
  const yTicks = linearTicks(Math.max(0, ...bins.map((b) => b.count)));
  const yMax = yTicks.at(-1)!;
  const span = Math.log(hi / lo) || 1;
  const x = (v: number) => f.left + (Math.log(v / lo) / span) * plotWidth(f);
  const bottom = f.top + plotHeight(f);
  const h = (v: number) => (v / yMax) * plotHeight(f);
  const bars = bins
    .map(
      (b) =>
        `<rect x="${fixed(x(b.from) + 0.5)}" y="${fixed(bottom - h(b.count))}" ` +
        `width="${fixed(Math.max(1, x(b.to) - x(b.from) - 1))}" height="${fixed(h(b.count))}" ` +
        `fill="${options.color}" data-from="${b.from}" data-to="${b.to}" data-count="${b.count}">` +
        `<title>${formatNumber(b.from)}–${formatNumber(b.to)} ms: ${b.count.toLocaleString('en-US')}</title></rect>`,
    )
    .join('');
  const markers = options.markers
    .map((m, i) => {
      const at = fixed(x(Math.min(Math.max(m.value, lo), hi)));
      // Labels near the right edge go on the line's left; a white halo keeps them readable over the bars.
      const left = at > f.width - f.right - 110;
      return (
        `<g data-marker="${escapeXml(m.name)}" data-value="${m.value}">` +
        `<line x1="${at}" x2="${at}" y1="${f.top}" y2="${bottom}" stroke="${m.color}" stroke-width="1.5" ` +
        `stroke-dasharray="4 3"/>` +
        `<text x="${left ? at - 4 : at + 4}" y="${f.top + 12 + i * 14}"${left ? ' text-anchor="end"' : ''} ` +
        `fill="${m.color}" font-weight="600" stroke="#ffffff" stroke-width="3" paint-order="stroke">` +
        `${escapeXml(m.name)} ${formatNumber(m.value)} ms</text></g>`
      );
    })
    .join('');
  return chart(f, { ...options, yTicks }, [], bars + markers, xTicks(f, logTicks(lo, hi), x));
}
