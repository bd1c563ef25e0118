import { StringDecoder } from 'node:string_decoder';
import { OutputLimits } from '../../limits.ts';
import type { RangeReader } from '../../storage/storage.ts';
import { CsvParser, CsvRecordTooLong, type CsvRecord } from './csv.ts';
import { streamFrom, type LocatedOutput } from './locate.ts';
import { count, fitText, PageRefusal, pageCost, type PageBody, type PageQuery } from './page.ts';

type CsvQuery = Extract<PageQuery, { mode: 'csv' }>;

/** Fields of the header listed in a page's facts (the header row itself is always in the text). */
const HEADER_FIELDS_SHOWN = 100;

/** The start of a data row too large for a page: its text so far, and where it and the text lie in the output. */
interface PartialRow {
  row: number;
  text: string;
  start: number;
  end: number;
}

/** Rows in the making: the header, then data rows `row`… within the budget. */
class RowPage {
  header: CsvRecord | undefined;
  rows: string[] = [];
  cost = 0;
  /** Data rows seen so far (the header is row 0). */
  seen = 0;
  /** Bytes of the records seen so far: where the next record starts in the output. */
  bytes = 0;
  /** The first data row not on the page, once one was seen. */
  next: number | undefined;
  full = false;
  /** The first row asked for, when it alone is larger than a page. */
  partial: PartialRow | undefined;

  constructor(private readonly query: CsvQuery) {}

  take(records: readonly CsvRecord[]): void {
    for (const record of records) {
      const start = this.bytes;
      this.bytes += Buffer.byteLength(record.raw, 'utf8');
      if (!this.header) {
        this.header = record;
        this.cost = pageCost(withBreak(record.raw));
        if (this.cost > this.query.budget)
          throw new PageRefusal(
            'The header row is larger than one page: read the output by offset instead, from offset 0.',
          );
        continue;
      }
      const row = ++this.seen;
      if (row < this.query.row || this.next !== undefined) continue;
      const cost = pageCost(record.raw);
      if (this.partial) this.next = row;
      else if (this.rows.length < this.query.rows && this.cost + cost <= this.query.budget) {
        this.rows.push(record.raw);
        this.cost += cost;
      } else if (this.rows.length === 0) {
        // Alone larger than a page: its start, and an offset to read on (asking for this row again would not help).
        const text = fitText(record.raw, this.query.budget - this.cost);
        this.partial = { row, text, start, end: start + Buffer.byteLength(text, 'utf8') };
      } else {
        this.next = row;
        this.full = this.rows.length < this.query.rows;
      }
    }
  }
}

/** A header row without a line break (a file of one line) gets one, so the rows start on a line of their own. */
const withBreak = (raw: string) => (raw.endsWith('\n') ? raw : `${raw}\n`);

/**
 * CSV data rows `row`… (1-based, the header not counted) with the header repeated on top, exactly as stored. The
 * rows are found by parsing from the start (quoted fields may span lines), one record in memory at a time; the scan
 * goes on to the end to count the rows unless the time limit comes first.
 */
export async function csvPage(
  storage: RangeReader,
  located: LocatedOutput,
  query: CsvQuery,
  deadline: number,
): Promise<PageBody> {
  const parser = new CsvParser(OutputLimits.maxCsvRecordBytes);
  const decoder = new StringDecoder('utf8');
  const page = new RowPage(query);
  let complete = true;
  try {
    for await (const chunk of streamFrom(storage, located, 0)) {
      page.take(parser.push(decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))));
      if (Date.now() > deadline) {
        complete = false;
        break;
      }
    }
    if (complete) page.take([...parser.push(decoder.end()), ...parser.end()]);
  } catch (error) {
    if (!(error instanceof CsvRecordTooLong)) throw error;
    throw new PageRefusal(
      `A CSV record near data row ${count(page.seen + 1)} is longer than ${count(error.maxChars)} characters ` +
        `(an unclosed quote, or the output is not CSV). Read the output by offset instead, from offset ` +
        `${page.bytes} where that record starts, or by line.`,
    );
  }
  if (!page.header) throw new PageRefusal('The output is empty: it has no CSV header row.');
  if (page.rows.length === 0 && page.next === undefined && !page.partial) {
    if (!complete)
      throw new PageRefusal(
        `Reading CSV rows took too long: the scan reached data row ${count(page.seen)} before the time limit. ` +
          'Read by offset or by line instead, or search for a value in the row you need.',
      );
    if (query.row > page.seen + 1 || page.seen > 0)
      throw new PageRefusal(
        `row ${count(query.row)} is past the end: the output has ${count(page.seen)} data rows after its header.`,
      );
  }
  const header = page.header;
  const partial = page.partial;
  const nextRow = page.next ?? (!complete && page.seen >= query.row ? page.seen + 1 : undefined);
  return {
    ...located.facts,
    mode: 'csv',
    text: withBreak(header.raw) + (partial ? partial.text : page.rows.join('')),
    ...(partial ? partialRow(partial, nextRow) : page.full ? { truncated: true } : {}),
    csv: {
      header: header.fields.slice(0, HEADER_FIELDS_SHOWN),
      row: query.row,
      rows: partial ? 1 : page.rows.length,
      ...(nextRow !== undefined ? { nextRow } : {}),
      ...(complete ? { totalRows: page.seen } : {}),
    },
  };
}

/** The facts of a page holding only the start of one row: where that start lies, and the two ways on. */
function partialRow(partial: PartialRow, nextRow: number | undefined): Partial<PageBody> {
  const after = nextRow !== undefined ? `, or go to the next row with row ${nextRow}` : '';
  return {
    offset: partial.start,
    length: partial.end - partial.start,
    nextOffset: partial.end,
    truncated: true,
    note:
      `row ${count(partial.row)} is larger than one page: this is its start (bytes ${count(partial.start)}–` +
      `${count(partial.end - 1)} of the output); read on with offset ${partial.end}${after}.`,
  };
}
