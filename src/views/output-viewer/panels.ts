import type { JSONObject } from '@mcp-lambda/server/protocol';
import type { ViewConnection } from '@mcp-lambda/server/view';
import { count, h, setStatus } from '../common/dom.ts';
import { parseCsv, readPage, ReadFailure, type Output, type Page } from './read.ts';

/**
 * The ways the viewer shows a stored output, one page at a time: each panel asks read_output for the page on
 * screen and replaces what it showed, so the view holds one page whatever the output's size.
 */

/** What every panel works with. */
export interface PanelContext {
  host: ViewConnection;
  output: Output;
  /** Where the page goes. */
  body: HTMLElement;
  /** The pager line above it. */
  nav: HTMLElement;
  status: HTMLElement;
}

/** A panel: shows its first page, and can jump to a line the search found. */
export interface Panel {
  start(): Promise<void>;
  /** Shows the page holding a line of the output, its row marked and scrolled into view. */
  goToLine(line: number): Promise<void>;
  /** The output's first line that is a row (a CSV's header is not), and what a row is called. */
  first: number;
  unit: string;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const obj = (v: unknown): JSONObject => (typeof v === 'object' && v !== null ? (v as JSONObject) : {});

/** Reads a page, saying so while it loads and saying what went wrong when it fails; undefined on failure. */
export async function load(ctx: PanelContext, args: JSONObject): Promise<Page | undefined> {
  setStatus(ctx.status, 'Reading…');
  try {
    const page = await readPage(ctx.host, { uri: ctx.output.uri, ...args });
    setStatus(ctx.status, '');
    return page;
  } catch (error) {
    setStatus(ctx.status, error instanceof ReadFailure ? error.message : String(error), 'error');
    return undefined;
  }
}

/** The pager line: buttons, then a label. */
function pager(ctx: PanelContext, label: string, buttons: [string, (() => void) | undefined][]): void {
  ctx.nav.replaceChildren(
    ...buttons.map(([text, go]) => h('button', { disabled: !go, onclick: go, 'data-nav': text }, text)),
    h('span', { class: 'where' }, label),
  );
}

/** Marks row `n` of the page (`data-n`), the only one marked, and scrolls it into view. */
function mark(ctx: PanelContext, n: number): void {
  ctx.body.querySelector('.hit')?.classList.remove('hit');
  const row = ctx.body.querySelector(`[data-n="${n}"]`);
  row?.classList.add('hit');
  // Centred: at the top or bottom edge the sticky header or the frame's border would hide it.
  row?.scrollIntoView({ block: 'center' });
}

/** Row `n` marked, on the page shown if it holds it, else on the page `show` loads. */
async function markOn(ctx: PanelContext, n: number, show: () => Promise<void>): Promise<void> {
  if (!ctx.body.querySelector(`[data-n="${n}"]`)) await show();
  mark(ctx, n);
}

/** CSV as a table: the header kept, data rows a page at a time. */
export function csvPanel(ctx: PanelContext, rows = 50): Panel {
  const show = async (row: number) => {
    const page = await load(ctx, { row, count: rows });
    if (!page) return;
    const csv = obj(page.facts.csv);
    // The header row is repeated on top of every page.
    const records = parseCsv(page.text);
    const header = records.shift() ?? [];
    const first = num(csv.row) ?? row;
    ctx.body.replaceChildren(
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, '#'), ...header.map((name) => h('th', {}, name)))),
        h(
          'tbody',
          {},
          ...records.map((r, i) =>
            h(
              'tr',
              { 'data-n': first + i },
              h('td', { class: 'n' }, count(first + i)),
              ...r.map((c) => h('td', {}, c)),
            ),
          ),
        ),
      ),
    );
    const total = num(csv.totalRows);
    const next = num(csv.nextRow);
    const last = first + records.length - 1;
    pager(ctx, `Rows ${count(first)}–${count(last)}${total !== undefined ? ` of ${count(total)}` : ''}`, [
      ['First', first > 1 ? () => void show(1) : undefined],
      ['Previous', first > 1 ? () => void show(Math.max(1, first - rows)) : undefined],
      ['Next', next !== undefined ? () => void show(next) : undefined],
    ]);
  };
  // Data row n is line n + 1, below the header (a quoted line break inside a record would shift it).
  return {
    start: () => show(1),
    goToLine: (line) => markOn(ctx, line - 1, () => show(Math.max(1, line - 1))),
    first: 2,
    unit: 'row',
  };
}

/** Text by lines, numbered. */
export function textPanel(ctx: PanelContext, lines = 100): Panel {
  const show = async (line: number) => {
    const page = await load(ctx, { line, count: lines });
    if (!page) return;
    const first = num(page.facts.line) ?? line;
    const texts = page.text.replace(/\n$/, '').split('\n');
    ctx.body.replaceChildren(
      h(
        'pre',
        { class: 'lines' },
        ...texts.map((t, i) =>
          h('div', { 'data-n': first + i }, h('span', { class: 'n' }, String(first + i)), t),
        ),
      ),
    );
    const next = num(page.facts.nextLine);
    const total = num(page.facts.lines);
    pager(
      ctx,
      `Lines ${count(first)}–${count(first + texts.length - 1)}${total !== undefined ? ` of ${count(total)}` : ''}`,
      [
        ['First', first > 1 ? () => void show(1) : undefined],
        ['Previous', first > 1 ? () => void show(Math.max(1, first - lines)) : undefined],
        ['Next', next !== undefined ? () => void show(next) : undefined],
      ],
    );
  };
  return {
    start: () => show(1),
    goToLine: (line) => markOn(ctx, line, () => show(Math.max(1, line - 2))),
    first: 1,
    unit: 'line',
  };
}

/** JSON by JSON Pointer: the value at the pointer, an array's or object's items a page at a time. */
export function jsonPanel(ctx: PanelContext, items = 50): Panel {
  const input = h('input', {
    type: 'text',
    placeholder: '/items/0',
    'aria-label': 'JSON Pointer',
    size: 32,
  });
  const show = async (pointer: string, item: number) => {
    const page = await load(ctx, { pointer, item, count: items });
    if (!page) return;
    const json = obj(page.facts.json);
    ctx.body.replaceChildren(h('pre', { class: 'json' }, page.text));
    const next = num(json.nextItem);
    const length = num(json.length);
    const at = num(json.item) ?? item;
    const label = `${String(json.type ?? 'value')} at "${pointer}"${length !== undefined ? `, ${count(length)} items` : ''}`;
    pager(ctx, label, [
      ['Previous', at > 0 ? () => void show(pointer, Math.max(0, at - items)) : undefined],
      ['Next', next !== undefined ? () => void show(pointer, next) : undefined],
    ]);
  };
  // No <form>: hosts sandbox views without allow-forms, where a form never submits.
  input.addEventListener('keydown', (e: KeyboardEvent) => e.key === 'Enter' && void show(input.value, 0));
  const form = h(
    'div',
    { class: 'pointer' },
    input,
    h('button', { onclick: () => void show(input.value, 0) }, 'Go'),
  );
  return {
    start: async () => {
      ctx.nav.before(form);
      await show('', 0);
    },
    // A match is a line of the JSON text: shown among its lines, until a pointer shows values again.
    goToLine: (line) => textPanel(ctx).goToLine(line),
    first: 1,
    unit: 'line',
  };
}
