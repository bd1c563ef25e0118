import type { RangeReader } from '../../storage/storage.ts';
import type { LineChunk } from './line-chunks.ts';
import { linesFrom, scanTimedOut } from './lines.ts';
import type { LocatedOutput } from './locate.ts';
import { count, fitText, pageCost, type PageBody, type PageQuery } from './page.ts';

/** Characters of a line shown around a match (and of a context line); longer lines are cut with "…". */
const SHOWN_LINE_CHARS = 240;

type SearchQuery = Extract<PageQuery, { mode: 'search' }>;

/** A line as shown: its number, the text to show, and whether it matched. */
interface Shown {
  line: number;
  text: string;
  match: boolean;
}

/** The shown part of a line: all of a short one; around the match, or its start, for a long one. */
function excerpt(text: string, at: number, needle: number): string {
  if (text.length <= SHOWN_LINE_CHARS) return text;
  const before = Math.max(0, Math.min(at, text.length) - Math.floor((SHOWN_LINE_CHARS - needle) / 2));
  const shown = text.slice(before, before + SHOWN_LINE_CHARS);
  return `${before > 0 ? '…' : ''}${shown}${before + SHOWN_LINE_CHARS < text.length ? '…' : ''}`;
}

/**
 * The search as a scan over lines: literal matching with `indexOf` (no pattern language, so no input can make it
 * slow), case folded on both sides when asked. Memory stays bounded: a long line is searched piece by piece with an
 * overlap, the context before a match is a ring of at most `context` lines, and at most `maxMatches` are kept.
 */
class Search {
  private readonly needle: string;
  private readonly before: Shown[] = [];
  /** Lines still to show after the latest kept match. */
  private after = 0;
  private line = 0;
  /** The current line so far: the end of its previous piece (for matches across pieces), its start, a match. */
  private tail = '';
  private rawTail = '';
  private head = '';
  private found = false;
  readonly shown = new Map<number, Shown>();
  matches: { line: number; text: string }[] = [];
  matchCount = 0;
  firstUnshown: number | undefined;
  scannedTo = 0;

  constructor(private readonly query: SearchQuery) {
    this.needle = query.ignoreCase ? query.text.toLowerCase() : query.text;
  }

  /** Takes one piece of a line. */
  take(piece: LineChunk): void {
    if (piece.line !== this.line) {
      this.line = piece.line;
      this.tail = '';
      this.rawTail = '';
      this.head = piece.text.slice(0, SHOWN_LINE_CHARS + 1);
      this.found = false;
    }
    if (this.found) return piece.last ? this.endLine() : undefined;
    const folded = this.query.ignoreCase ? piece.text.toLowerCase() : piece.text;
    const hay = this.tail + folded;
    const at = hay.indexOf(this.needle);
    if (at !== -1) {
      this.found = true;
      this.head = excerpt(this.rawTail + piece.text, at, this.needle.length);
    }
    if (piece.last) return this.endLine();
    // The end of this piece, so a match across the boundary with the next piece of the line is still found.
    const keep = this.needle.length - 1;
    this.tail = keep > 0 ? hay.slice(-keep) : '';
    this.rawTail = keep > 0 ? (this.rawTail + piece.text).slice(-keep) : '';
  }

  private endLine(): void {
    const line = this.line;
    this.scannedTo = line;
    const text =
      this.head.length > SHOWN_LINE_CHARS && !this.found
        ? `${this.head.slice(0, SHOWN_LINE_CHARS)}…`
        : this.head;
    const here: Shown = { line, text, match: this.found };
    if (line < this.query.line) return this.remember(here);
    if (here.match) this.matchCount++;
    if (here.match && this.matches.length < this.query.maxMatches) {
      for (const context of this.before) this.shown.set(context.line, context);
      this.shown.set(line, here);
      this.matches.push({ line, text });
      this.after = this.query.context;
    } else {
      if (here.match) this.firstUnshown ??= line;
      if (this.after > 0 && !this.shown.has(line)) this.shown.set(line, here);
      if (this.after > 0) this.after--;
    }
    this.remember(here);
  }

  private remember(line: Shown): void {
    if (this.query.context === 0) return;
    this.before.push(line);
    if (this.before.length > this.query.context) this.before.shift();
  }
}

/** Renders kept lines as grep does: `12: text` for a match, `11- text` for context, `--` between groups. */
function render(lines: readonly Shown[]): string {
  const out: string[] = [];
  let previous: number | undefined;
  for (const l of lines) {
    if (previous !== undefined && l.line > previous + 1) out.push('--');
    out.push(`${l.line}${l.match ? ':' : '-'} ${l.text}`);
    previous = l.line;
  }
  return out.join('\n');
}

/**
 * The matches (with their context) that fit the page: whole groups, dropping the last until the rendering fits.
 * When not even the first group fits, its matching line alone, cut to the page, so the next page starts after it.
 */
function fitMatches(search: Search, query: SearchQuery) {
  let kept = search.matches;
  let lines = [...search.shown.values()].sort((a, b) => a.line - b.line);
  while (kept.length > 0 && pageCost(render(lines)) > query.budget) {
    kept = kept.slice(0, -1);
    const lastLine = kept.at(-1)?.line;
    lines = lastLine === undefined ? [] : lines.filter((l) => l.line <= lastLine + query.context);
  }
  const first = search.matches[0];
  if (kept.length > 0 || !first) return { kept, lines };
  const alone = fitText(render([{ ...first, match: true }]), query.budget);
  return { kept: [first], lines: [], alone };
}

/**
 * The lines containing a literal text, from `line` on, with their line numbers and a few lines of context, as many
 * as asked for and the page budget allows; the count covers every line scanned. The scan runs to the end of the
 * output (to count) unless the time limit comes first, and then says how far it got.
 */
export async function searchPage(
  storage: RangeReader,
  located: LocatedOutput,
  query: SearchQuery,
  deadline: number,
): Promise<PageBody> {
  const search = new Search(query);
  let complete = true;
  const start = Math.max(1, query.line - query.context);
  for await (const batch of linesFrom(storage, located, start)) {
    for (const piece of batch) search.take(piece);
    if (Date.now() > deadline) {
      complete = false;
      break;
    }
  }
  if (!complete && search.scannedTo < query.line)
    throw scanTimedOut(`line ${count(query.line)}`, search.scannedTo);
  const { kept, lines, alone } = fitMatches(search, query);
  const dropped = search.matches[kept.length]?.line;
  const nextLine = dropped ?? search.firstUnshown ?? (complete ? undefined : search.scannedTo + 1);
  return {
    ...located.facts,
    mode: 'search',
    text: alone ?? render(lines),
    line: query.line,
    ...(nextLine !== undefined ? { nextLine } : {}),
    ...(dropped !== undefined || alone !== undefined ? { truncated: true } : {}),
    ...(alone !== undefined
      ? {
          note:
            'the first match and its context are larger than one page: the matching line is shown alone, in ' +
            `part; read it whole with line ${kept[0]!.line}.`,
        }
      : {}),
    search: {
      text: query.text,
      ignoreCase: query.ignoreCase,
      matchCount: search.matchCount,
      complete,
      scannedTo: search.scannedTo,
      matches: kept,
    },
  };
}
