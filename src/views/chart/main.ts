import type { CallToolResult, JSONObject } from '@mcp-lambda/server/protocol';
import { connectView } from '@mcp-lambda/server/view';
import { h, resultText, setStatus, svg } from '../common/dom.ts';
import './style.css';

/**
 * The chart view of render_chart: the same bars as the PNG, drawn from the call's arguments as SVG, with each value
 * on hover (and on focus, for the keyboard) and a legend whose buttons show or hide a series. The axis rescales to
 * the series shown. The PNG stays the tool's result, so hosts without views show the image as before.
 */

interface Series {
  name: string;
  values: number[];
  shown: boolean;
}

const WIDTH = 640;
const HEIGHT = 300;
const PAD = { top: 12, right: 12, bottom: 28, left: 48 };

const status = h('p', { class: 'status', role: 'status' }, 'Waiting for the chart…');
const legend = h('div', { class: 'legend', role: 'group', 'aria-label': 'Series' });
const plot = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'plot' });
const tip = h('div', { class: 'tip', role: 'tooltip', hidden: true });
document.body.append(h('div', { class: 'chart' }, legend, h('div', { class: 'frame' }, plot, tip), status));

let series: Series[] = [];
let labels: string[] = [];

/** Reads the call's arguments; anything malformed leaves the chart empty with a reason. */
function fromArguments(args: JSONObject): void {
  const numbers = (v: unknown) =>
    Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
  const values = numbers(args.values);
  const more = Array.isArray(args.series) ? (args.series as JSONObject[]) : [];
  series = [
    { name: 'values', values, shown: true },
    ...more.map((s, i) => ({
      name: typeof s.name === 'string' ? s.name : `series ${i + 2}`,
      values: numbers(s.values),
      shown: true,
    })),
  ];
  labels = values.map((_, i) =>
    Array.isArray(args.labels) && typeof args.labels[i] === 'string' ? args.labels[i] : String(i + 1),
  );
  if (values.length === 0) setStatus(status, 'The call has no values to chart.', 'error');
  else setStatus(status, `${values.length} bars, ${series.length} series. Hover a bar for its value.`);
  draw();
}

/** Draws the legend and the bars of the series shown, the axis scaled to them. */
function draw(): void {
  legend.replaceChildren(
    ...series.map((s, i) =>
      h(
        'button',
        { class: 'series', 'data-series': i, 'aria-pressed': String(s.shown), onclick: () => toggle(i) },
        h('span', { class: `swatch c${i}` }),
        s.name,
      ),
    ),
  );
  const shown = series.map((s, i) => ({ ...s, index: i })).filter((s) => s.shown);
  const max = Math.max(1e-9, ...shown.flatMap((s) => s.values));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const groups = labels.length || 1;
  const groupW = innerW / groups;
  const barW = groupW / Math.max(1, shown.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const nodes: SVGElement[] = [
    svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(0), y2: y(0), class: 'axis' }),
    svg('text', { x: PAD.left - 6, y: y(max) + 4, class: 'tick', 'text-anchor': 'end' }, format(max)),
    svg('text', { x: PAD.left - 6, y: y(0) + 4, class: 'tick', 'text-anchor': 'end' }, '0'),
  ];
  labels.forEach((label, g) => {
    if (groups <= 20 || g % Math.ceil(groups / 20) === 0)
      nodes.push(
        svg(
          'text',
          { x: PAD.left + g * groupW + groupW / 2, y: HEIGHT - 8, class: 'tick', 'text-anchor': 'middle' },
          label,
        ),
      );
    shown.forEach((s, k) => {
      const value = s.values[g] ?? 0;
      const bar = svg('rect', {
        x: PAD.left + g * groupW + k * barW + 1,
        y: y(value),
        width: Math.max(1, barW - 2),
        height: Math.max(0, y(0) - y(value)),
        class: `bar c${s.index}`,
        tabindex: 0,
        'data-label': label,
        'data-series': s.name,
        'data-value': value,
        'aria-label': `${label}, ${s.name}: ${format(value)}`,
      });
      bar.addEventListener('mouseenter', () => showTip(bar));
      bar.addEventListener('focus', () => showTip(bar));
      bar.addEventListener('mouseleave', hideTip);
      bar.addEventListener('blur', hideTip);
      nodes.push(bar);
    });
  });
  plot.replaceChildren(...nodes);
  if (shown.length === 0) setStatus(status, 'Every series is hidden: press one above to show it.');
}

function toggle(index: number): void {
  const s = series[index];
  if (!s) return;
  s.shown = !s.shown;
  draw();
  (legend.querySelector(`[data-series="${index}"]`) as HTMLElement | null)?.focus();
}

function showTip(bar: SVGRectElement): void {
  tip.textContent = `${bar.dataset.label} · ${bar.dataset.series}: ${format(Number(bar.dataset.value))}`;
  const box = bar.getBoundingClientRect();
  const frame = plot.getBoundingClientRect();
  tip.style.left = `${box.left - frame.left + box.width / 2}px`;
  tip.style.top = `${box.top - frame.top}px`;
  tip.hidden = false;
}

function hideTip(): void {
  tip.hidden = true;
}

const format = (n: number) =>
  Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 3 });

function onResult(result: CallToolResult): void {
  if (result.isError) setStatus(status, resultText(result) || 'The chart could not be rendered.', 'error');
}

connectView({
  name: 'chart',
  version: '1.0.0',
  onToolInput: fromArguments,
  onToolResult: onResult,
  onToolCancelled: (reason) =>
    setStatus(status, `The chart was cancelled${reason ? `: ${reason}` : ''}.`, 'error'),
}).catch((error: Error) => setStatus(status, `The host did not connect: ${error.message}`, 'error'));
