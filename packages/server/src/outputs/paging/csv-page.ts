import { StringDecoder } from 'node:string_decoder';
import { OutputLimits } from '../../limits.ts';
import type { RangeReader } from '../../storage/storage.ts';
import { CsvParser, CsvRecordTooLong, type CsvRecord } from './csv.ts';
import { streamFrom, type LocatedOutput } from './locate.ts';
import { count, PageRefusal, pageCost, type PageBody, type PageQuery } from './page.ts';

type CsvQuery = Extract<PageQuery, { mode: 'csv' }>;

/** Fields of the header listed in a page's facts (the header row itself is always in the text). */
const HEADER_FIELDS_SHOWN = 100;

/** Rows in the making: the header, then data rows `row`… within the budget. */
class RowPage {
  header: CsvRecord | undefined;
  rows: string[] = [];
  cost = 0;
  /** Data rows seen so far (the header is row 0). */
  seen = 0;
  /** The first data row not on the page, once one was seen. */
  next: number | undefined;
  full = false;

  constructor(private readonly query: CsvQuery) {}

  take(records: readonly CsvRecord[]): void {
    for (const record of records) {
      if (!this.header) {
        this.header = record;
        this.cost = pageCost(withBreak(record.raw));
        if (this.cost > this.query.budget)
          throw new PageRefusal('The header row is larger than one page: read the output by offset instead.');
        continue;
      }
      const row = ++this.seen;
      if (row < this.query.row || this.next !== undefined) continue;
      const cost = pageCost(record.raw);
      if (this.rows.length < this.query.rows && this.cost + cost <= this.query.budget) {
        this.rows.push(record.raw);
        this.cost += cost;
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
        `(an unclosed quote, or the output is not CSV). Read the output by offset or by line instead.`,
    );
  }
  if (!page.header) throw new PageRefusal('The output is empty: it has no CSV header row.');
  if (page.rows.length === 0 && page.next === undefined) {
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
  return {
    ...located.facts,
    mode: 'csv',
    text: withBreak(header.raw) + page.rows.join(''),
    ...(page.full ? { truncated: true } : {}),
    csv: {
      header: header.fields.slice(0, HEADER_FIELDS_SHOWN),
      row: query.row,
      rows: page.rows.length,
      ...(page.next !== undefined ? { nextRow: page.next } : !complete ? { nextRow: page.seen + 1 } : {}),
      ...(complete ? { totalRows: page.seen } : {}),
    },
  };
}
