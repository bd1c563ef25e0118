import { clientText } from '../../protocol/client-text.ts';
import { MAX_JSON_DEPTH, OutputLimits } from '../../limits.ts';
import { nestsDeeperThan } from '../../protocol/json.ts';
import type { RangeReader } from '../../storage/storage.ts';
import { formatSize } from '../sizes.ts';
import { locateValue } from './json-locate.ts';
import { formatPointer, jsonType, parsePointer, resolvePointer } from './json-pointer.ts';
import { readBytes, type LocatedOutput } from './locate.ts';
import { count, fitText, PageRefusal, pageCost, type PageBody, type PageQuery } from './page.ts';

/** Largest output parsed whole to select JSON: parsing takes several times its size in memory. */
const MAX_PARSED_BYTES = OutputLimits.maxParsedBytes;

type JsonQuery = Extract<PageQuery, { mode: 'json' }>;

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** The document's text and its value; refused above the size cap or when it is not JSON. */
async function parseDocument(
  storage: RangeReader,
  located: LocatedOutput,
): Promise<{ text: string; root: unknown }> {
  const { size } = located.facts;
  if (size > MAX_PARSED_BYTES) {
    throw new PageRefusal(
      `The output is ${formatSize(size)}, more than the ${formatSize(MAX_PARSED_BYTES)} that can be parsed whole ` +
        `to select JSON. Read it by offset or by line instead, or search it for the text you need.`,
    );
  }
  const text = (await readBytes(storage, located, 0, size)).toString('utf8');
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new PageRefusal(
      `The output (${located.facts.mimeType}) is not valid JSON (${clientText((error as Error).message, 160)}). ` +
        `Read it by offset or by line instead, or search it.`,
    );
  }
  // Selecting serializes values, which overflows the stack thousands of levels deep (a tool may store JSON it
  // fetched from anywhere): beyond the limit every client message keeps to, the document is read as text.
  if (nestsDeeperThan(root, MAX_JSON_DEPTH))
    throw new PageRefusal(
      `The output nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, too deep to select JSON from. ` +
        `Read it by offset or by line instead, or search it.`,
    );
  return { text, root };
}

/** Items `item`… of an array, as a JSON array, as many as asked for and the budget allows. */
function arrayItems(
  value: unknown[],
  pointer: string,
  query: JsonQuery,
): (Pick<PageBody, 'text' | 'truncated'> & { next?: number }) | 'too large' {
  if (value.length === 0 && query.item === 0) return { text: '[]' };
  if (query.item >= value.length) {
    throw new PageRefusal(
      `item ${count(query.item)} is past the end of ${pointer || 'the document'}, an array of ` +
        `${count(value.length)} items (0 to ${count(value.length - 1)}).`,
    );
  }
  const items: string[] = [];
  let cost = 2;
  let at = query.item;
  for (; at < value.length && items.length < query.items; at++) {
    const json = JSON.stringify(value[at]) ?? 'null';
    const more = pageCost(json) + (items.length ? 1 : 0);
    if (cost + more > query.budget) break;
    items.push(json);
    cost += more;
  }
  if (items.length === 0) return 'too large';
  const full = at < value.length && items.length < query.items;
  return {
    text: `[${items.join(',')}]`,
    ...(at < value.length ? { next: at } : {}),
    ...(full ? { truncated: true } : {}),
  };
}

/** The members of an object too large for one page: name, type and size of each, to select one by pointer. */
function objectMembers(value: Record<string, unknown>, query: JsonQuery) {
  const keys = Object.keys(value);
  if (query.item > 0 && query.item >= keys.length)
    throw new PageRefusal(
      `item ${count(query.item)} is past the end of the object's ${count(keys.length)} members ` +
        `(0 to ${count(keys.length - 1)}).`,
    );
  const lines: string[] = [];
  let cost = 0;
  let at = query.item;
  for (; at < keys.length && lines.length < query.items; at++) {
    const member = value[keys[at]!];
    const size = bytesOf(JSON.stringify(member) ?? 'null');
    const shape = Array.isArray(member)
      ? `array of ${count(member.length)} items`
      : jsonType(member) === 'object'
        ? `object with ${count(Object.keys(member as object).length)} members`
        : jsonType(member);
    const line = `${JSON.stringify(keys[at])}: ${shape}, ${count(size)} bytes`;
    // A name longer than a page is shown in part, so every page lists at least one member.
    const fitted = lines.length === 0 ? fitText(line, query.budget) : line;
    if (cost + pageCost(fitted) + 1 > query.budget && lines.length > 0) break;
    lines.push(fitted);
    cost += pageCost(fitted) + 1;
  }
  return { text: lines.join('\n'), ...(at < keys.length ? { next: at } : {}) };
}

/** What the page of a selected value says besides its text. */
type Selection = { base: Omit<PageBody, 'text'>; json: NonNullable<PageBody['json']>; shown: string };

/**
 * The start of a value too large for one page, exactly as stored, and the byte offset to read on from: a long
 * string or number, or an array item that alone fills more than a page.
 */
function valueStart(
  text: string,
  tokens: readonly string[],
  budget: number,
): Pick<PageBody, 'text' | 'offset' | 'length' | 'nextOffset' | 'truncated'> {
  const range = locateValue(text, tokens)!;
  const start = bytesOf(text.slice(0, range.start));
  const shown = fitText(text.slice(range.start, range.end), budget);
  const end = start + bytesOf(shown);
  return { text: shown, offset: start, length: end - start, nextOffset: end, truncated: true };
}

/** Bytes `offset`… of a value's start, in the words of a note. */
const startNote = (what: string, page: Pick<PageBody, 'offset' | 'nextOffset'>) =>
  `${what} is larger than one page: this is its start as stored (bytes ${count(page.offset!)}–` +
  `${count(page.nextOffset! - 1)} of the output); read on with offset ${page.nextOffset}`;

/** Items `item`… of a selected array, or the start of the first when it alone is larger than a page. */
function arrayPage(
  value: unknown[],
  doc: { text: string; tokens: string[] },
  query: JsonQuery,
  s: Selection,
) {
  const json = { ...s.json, length: value.length, item: query.item };
  const items = arrayItems(value, s.shown, query);
  if (items === 'too large') {
    const page = valueStart(doc.text, [...doc.tokens, String(query.item)], query.budget);
    const next = query.item + 1 < value.length ? query.item + 1 : undefined;
    const after = next !== undefined ? `, or go to the next item with item ${next}` : '';
    return {
      ...s.base,
      ...page,
      json: { ...json, ...(next !== undefined ? { nextItem: next } : {}) },
      note:
        `${startNote(`item ${count(query.item)}`, page)}${after}, or select inside it with pointer ` +
        `"${s.shown}/${query.item}/…".`,
    };
  }
  const { next, ...page } = items;
  return { ...s.base, ...page, json: { ...json, ...(next !== undefined ? { nextItem: next } : {}) } };
}

/**
 * The value a JSON Pointer selects, with its type and size: arrays a page of items at a time, objects whole when
 * they fit a page and otherwise as a list of their members, scalars whole; a value or an item too large for a page
 * gives its start and the offset to read on from.
 */
export async function jsonPage(
  storage: RangeReader,
  located: LocatedOutput,
  query: JsonQuery,
): Promise<PageBody> {
  const tokens = parsePointer(query.pointer);
  if (!tokens.ok) throw new PageRefusal(tokens.message);
  const { text, root } = await parseDocument(storage, located);
  const found = resolvePointer(root, tokens.value);
  if (!found.ok) throw new PageRefusal(found.message);
  const value = found.value;
  const pointer = formatPointer(tokens.value);
  const serialized = JSON.stringify(value);
  const type = jsonType(value);
  const selection: Selection = {
    base: { ...located.facts, mode: 'json' },
    json: { pointer, type, size: bytesOf(serialized) },
    // Repeated in sentences to the model: capped, as every client-supplied string is.
    shown: clientText(pointer),
  };
  const { base, json, shown } = selection;
  if (Array.isArray(value)) return arrayPage(value, { text, tokens: tokens.value }, query, selection);
  const object = type === 'object' ? (value as Record<string, unknown>) : undefined;
  if (object && (query.item > 0 || pageCost(serialized) > query.budget)) {
    const { next, text: members } = objectMembers(object, query);
    const length = Object.keys(object).length;
    return {
      ...base,
      text: members,
      json: { ...json, length, item: query.item, ...(next !== undefined ? { nextItem: next } : {}) },
      note:
        `the object is larger than one page, so its members are listed (name, type, size); select one with ` +
        `pointer "${shown}/<name>" (escape "~" as "~0" and "/" as "~1").`,
    };
  }
  if (pageCost(serialized) <= query.budget)
    return {
      ...base,
      text: serialized,
      json: object ? { ...json, length: Object.keys(object).length } : json,
    };
  const page = valueStart(text, tokens.value, query.budget);
  return { ...base, ...page, json, note: `${startNote(`the ${type}`, page)}.` };
}
