import type { RangeReader } from '../../storage/storage.ts';
import { scanStartForLine } from '../layout.ts';
import { lineChunks, type LineChunk } from './line-chunks.ts';
import { streamFrom, type LocatedOutput } from './locate.ts';
import { count, fitText, PageRefusal, pageCost, type PageBody, type PageQuery } from './page.ts';

/**
 * The lines of an output from the part where `line` can start on: the newline counts stored per part let the scan
 * skip every part before it, so reaching a line reads at most one part (about 5 MiB) before it.
 */
export function linesFrom(storage: RangeReader, located: LocatedOutput, line: number) {
  const { part, newlinesBefore } = scanStartForLine(located.layout, line);
  const offset = located.layout.parts[part]!.start;
  return lineChunks(streamFrom(storage, located, part), { offset, line: newlinesBefore + 1 });
}

/** Refuses a scan that ran out of time, with what to do instead. */
export function scanTimedOut(what: string, reached: number): PageRefusal {
  return new PageRefusal(
    `Reading ${what} took too long: the scan reached line ${count(reached)} before the time limit. ` +
      `Read by offset instead (offsets jump straight to any byte), or search for a text near what you need.`,
  );
}

/** A page in the making: whole lines in order, within the budget. */
class LinePage {
  text = '';
  cost = 0;
  start: number | undefined;
  end = 0;
  lastLine = 0;
  /** Pieces of the line being read, until its last piece arrives. */
  private current: LineChunk[] = [];
  private currentCost = 0;

  constructor(private readonly budget: number) {}

  /** Adds a piece; false when the page is full (the piece's line does not fit). */
  add(piece: LineChunk): boolean {
    const text = piece.newline ? `${piece.text}\n` : piece.text;
    this.current.push({ ...piece, text });
    this.currentCost += pageCost(text);
    if (this.cost + this.currentCost > this.budget) return false;
    if (piece.last) this.commit();
    return true;
  }

  private commit(): void {
    const first = this.current[0]!;
    this.start ??= first.start;
    this.text += this.current.map((p) => p.text).join('');
    this.cost += this.currentCost;
    this.end = this.current.at(-1)!.end;
    this.lastLine = first.line;
    this.current = [];
    this.currentCost = 0;
  }

  /** When not even the first line fits: as much of it as the budget allows. */
  partialFirstLine(): { text: string; start: number; end: number; line: number } {
    const first = this.current[0]!;
    const text = fitText(this.current.map((p) => p.text).join(''), this.budget);
    return { text, start: first.start, end: first.start + Buffer.byteLength(text, 'utf8'), line: first.line };
  }
}

/** Lines `line`… of a text output: exact bytes of whole lines, as many as asked for and the budget allows. */
export async function linesPage(
  storage: RangeReader,
  located: LocatedOutput,
  query: Extract<PageQuery, { mode: 'lines' }>,
  deadline: number,
): Promise<PageBody> {
  const total = located.facts.lines;
  if (total !== undefined && query.line > Math.max(total, 1)) throw pastLastLine(query.line, total);
  const page = new LinePage(query.budget);
  const wanted = query.line + query.lines - 1;
  let stop: 'full' | 'done' | 'end' = 'end';
  let next: LineChunk | undefined;
  scan: for await (const batch of linesFrom(storage, located, query.line)) {
    if (Date.now() > deadline) throw scanTimedOut(`line ${count(query.line)}`, batch[0]!.line);
    for (const piece of batch) {
      if (piece.line < query.line) continue;
      next = piece;
      if (piece.line > wanted) stop = 'done';
      else if (!page.add(piece)) stop = 'full';
      else continue;
      break scan;
    }
  }
  if (page.start === undefined && stop !== 'full') {
    if (located.facts.size === 0 && query.line === 1)
      return { ...located.facts, mode: 'lines', text: '', offset: 0, length: 0 };
    throw pastLastLine(query.line, total);
  }
  const facts = { ...located.facts, mode: 'lines' as const };
  if (page.start === undefined) {
    const part = page.partialFirstLine();
    return {
      ...facts,
      text: part.text,
      offset: part.start,
      length: part.end - part.start,
      nextOffset: part.end,
      line: part.line,
      lastLine: part.line,
      truncated: true,
      note:
        `line ${count(part.line)} is longer than one page: this is its start; read on with offset ` +
        `${count(part.end)}, or go to the next line with line ${count(part.line + 1)}.`,
    };
  }
  const more = stop !== 'end' && next !== undefined;
  return {
    ...facts,
    text: page.text,
    offset: page.start,
    length: page.end - page.start,
    ...(more ? { nextOffset: page.end } : {}),
    line: query.line,
    lastLine: page.lastLine,
    ...(more ? { nextLine: page.lastLine + 1 } : {}),
    ...(stop === 'full' ? { truncated: true } : {}),
  };
}

function pastLastLine(line: number, total: number | undefined): PageRefusal {
  const lines = total === undefined ? 'fewer lines' : `${count(total)} line${total === 1 ? '' : 's'}`;
  return new PageRefusal(
    `line ${count(line)} is past the end of the output, which has ${lines}. Ask for an earlier line.`,
  );
}
