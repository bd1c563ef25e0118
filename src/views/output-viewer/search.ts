import { count, h } from '../common/dom.ts';
import { load, type Panel, type PanelContext } from './panels.ts';

/** Matches asked of read_output at a time; more are asked for when the person steps past them. */
const BATCH = 20;

/**
 * Search in the panel itself: read_output finds the matching lines, the panel shows the page holding one with its
 * row marked, and the bar keeps saying which match it is, in the panel's own numbering, and how many there are.
 */
export function searchBox(ctx: PanelContext, panel: Panel): HTMLElement {
  const input = h('input', {
    type: 'search',
    placeholder: 'Search',
    'aria-label': 'Search the output',
    size: 20,
  });
  const where = h('span', { class: 'where', 'aria-live': 'polite' });
  let text = '';
  let lines: number[] = [];
  let total = 0;
  let complete = true;
  let next: number | undefined;
  let at = 0;

  /** Asks for the matches from a line on; false when the read failed (the status line says why). */
  const fetchFrom = async (line: number): Promise<boolean> => {
    const page = await load(ctx, { search: text, ignoreCase: true, line, context: 0, count: BATCH });
    if (!page) return false;
    const s = (page.facts.search ?? {}) as {
      matchCount?: number;
      complete?: boolean;
      /** The matching lines' numbers. */
      matches?: number[];
    };
    // The count covers the lines from `line` on; those before were counted by the earlier reads.
    total = Math.max(total, lines.length + (s.matchCount ?? 0));
    complete = s.complete !== false;
    lines.push(...(s.matches ?? []));
    next = typeof page.facts.nextLine === 'number' ? page.facts.nextLine : undefined;
    return true;
  };

  const go = async (k: number) => {
    if (k >= lines.length && next !== undefined && !(await fetchFrom(next))) return;
    const line = lines[k];
    if (line === undefined) return;
    at = k;
    await panel.goToLine(line);
    where.textContent =
      `Match ${count(k + 1)} of ${count(total)}${complete ? '' : '+'}: ` +
      `${panel.unit} ${count(line - panel.first + 1)}`;
    previous.disabled = k === 0;
    forward.disabled = k + 1 >= lines.length && next === undefined;
  };

  const search = async () => {
    text = input.value.trim();
    lines = [];
    total = 0;
    previous.disabled = forward.disabled = true;
    where.textContent = '';
    if (!text || !(await fetchFrom(panel.first))) return;
    if (lines.length) return go(0);
    where.textContent = `No matches for "${text}"${complete ? '' : ' so far'}.`;
  };

  const previous = h('button', { disabled: true, onclick: () => void go(at - 1) }, 'Previous match');
  const forward = h('button', { disabled: true, onclick: () => void go(at + 1) }, 'Next match');
  // No <form>: hosts sandbox views without allow-forms, where a form never submits. Enter and the button search.
  input.addEventListener('keydown', (e: KeyboardEvent) => e.key === 'Enter' && void search());
  return h(
    'div',
    { class: 'search', role: 'search' },
    input,
    h('button', { onclick: () => void search() }, 'Search'),
    previous,
    forward,
    where,
  );
}
