import { clientText } from '../../protocol/client-text.ts';
import { formatSize } from '../sizes.ts';
import { count, type OutputPage } from './page.ts';

/**
 * The sentence above a page: where it lies in the output, and exactly which argument of `read_output` gets the next
 * one (or that this is the end). Written where the page is read, so the MCP function only passes it on. Pure.
 */

type Page = Omit<OutputPage, 'summary'>;

/** Numbers the model copies into its next call are written without separators. */
const arg = (name: string, value: number) => `${name} ${value}`;

function facts(page: Page): string {
  const lines = page.lines !== undefined ? `, ${count(page.lines)} line${page.lines === 1 ? '' : 's'}` : '';
  return `${page.uri} (${page.mimeType}, ${formatSize(page.size)}${lines})`;
}

function bytesHeader(page: Page): string {
  const end = page.offset! + page.length!;
  const span = page.length ? `Bytes ${count(page.offset!)}–${count(end - 1)}` : 'No bytes';
  return `${span} of ${facts(page)}.`;
}

function linesHeader(page: Page): string {
  const span =
    page.line === page.lastLine
      ? `Line ${count(page.line!)}`
      : `Lines ${count(page.line!)}–${count(page.lastLine!)}`;
  return page.line === undefined ? `No lines of ${facts(page)}.` : `${span} of ${facts(page)}.`;
}

function searchHeader(page: Page): string {
  const s = page.search!;
  const how = `${JSON.stringify(clientText(s.text))}${s.ignoreCase ? ' (ignoring case)' : ''}`;
  const where = `lines ${count(page.line!)}–${count(s.scannedTo)}${s.complete ? '' : ' (the scan stopped at its time limit)'}`;
  const found = `${count(s.matchCount)} line${s.matchCount === 1 ? '' : 's'} contain${s.matchCount === 1 ? 's' : ''} ${how} in ${where} of ${facts(page)}`;
  return s.matches.length < s.matchCount ? `${found}; showing ${s.matches.length}.` : `${found}.`;
}

function jsonHeader(page: Page): string {
  const j = page.json!;
  const at = j.pointer === '' ? 'The document' : `The value at ${JSON.stringify(clientText(j.pointer))}`;
  const plural = (n: number, what: string) => `${count(n)} ${what}${n === 1 ? '' : 's'}`;
  const shape =
    j.length === undefined
      ? j.type
      : j.type === 'array'
        ? `array of ${plural(j.length, 'item')}`
        : `object with ${plural(j.length, 'member')}`;
  const article = /^[aeiou]/.test(shape) ? 'an' : 'a';
  const items =
    j.type !== 'array' || !j.length
      ? ''
      : page.nextOffset !== undefined
        ? `; the start of item ${count(j.item!)} below`
        : `; items ${count(j.item!)}–${count((j.nextItem ?? j.length) - 1)} below`;
  return `${at} in ${facts(page)} is ${article} ${shape} of ${formatSize(j.size)}${items}.`;
}

function csvHeader(page: Page): string {
  const c = page.csv!;
  const total = c.totalRows !== undefined ? ` of ${count(c.totalRows)}` : '';
  const rows =
    c.rows === 0
      ? 'No data rows'
      : c.rows === 1
        ? `Row ${count(c.row)}`
        : `Rows ${count(c.row)}–${count(c.row + c.rows - 1)}`;
  const span = c.rows === 0 ? rows : `${rows}${total}`;
  return `${span} of the CSV ${facts(page)}, below its header row.`;
}

/** The sentence that says how to go on, or that this is the end. */
function nextStep(page: Page): string {
  const call = (...args: string[]) =>
    `Next page: call read_output with the same uri and ${args.join(' and ')}.`;
  switch (page.mode) {
    case 'bytes':
      return page.nextOffset !== undefined
        ? call(arg('offset', page.nextOffset))
        : 'This is the end of the output.';
    case 'lines':
      if (page.nextLine !== undefined) return call(arg('line', page.nextLine));
      return page.nextOffset !== undefined
        ? call(arg('offset', page.nextOffset))
        : 'This is the end of the output.';
    case 'search':
      return page.nextLine !== undefined
        ? `More matches: call read_output with the same uri and search, and ${arg('line', page.nextLine)}.`
        : 'No more matches.';
    case 'json':
      // A value larger than a page reads on inside it first.
      if (page.nextOffset !== undefined) return call(arg('offset', page.nextOffset));
      return page.json?.nextItem !== undefined
        ? call('the same pointer', arg('item', page.json.nextItem))
        : '';
    case 'csv':
      // A row larger than a page reads on inside it first.
      if (page.nextOffset !== undefined) return call(arg('offset', page.nextOffset));
      return page.csv?.nextRow !== undefined ? call(arg('row', page.csv.nextRow)) : 'This is the last row.';
  }
}

const HEADERS = {
  bytes: bytesHeader,
  lines: linesHeader,
  search: searchHeader,
  json: jsonHeader,
  csv: csvHeader,
};

/**
 * On the first page of an output longer than a page, the other ways in that suit it: what the tool's definition
 * leaves out (hosts send it with every model call), said once per output, where it applies.
 */
function waysIn(page: Page): string {
  if (page.mode !== 'bytes' || page.offset !== 0 || page.nextOffset === undefined) return '';
  const type = page.mimeType.split(';')[0]!.trim().toLowerCase();
  const select =
    type === 'text/csv'
      ? ' row picks CSV data rows (1-based, the header repeated on each page);'
      : type === 'application/json' || type.endsWith('+json')
        ? ' pointer selects inside the JSON (arrays paged by item);'
        : '';
  return (
    `Other ways in:${select} search finds the lines containing a literal text, numbered, with context; line ` +
    'reads whole lines; count sets the page size.'
  );
}

/** The summary of a page: its header sentence, a note when there is one, how to go on, and other ways in. */
export function describePage(page: Page): string {
  const note = page.note ? ` Note: ${page.note}` : '';
  return [`${HEADERS[page.mode](page)}${note}`, nextStep(page), waysIn(page)].filter(Boolean).join(' ');
}
