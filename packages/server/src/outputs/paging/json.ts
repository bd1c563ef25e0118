import { clientText } from '../../protocol/client-text.ts';
import { OutputLimits } from '../../limits.ts';
import type { RangeReader } from '../../storage/storage.ts';
import { formatSize } from '../summary.ts';
import { formatPointer, jsonType, parsePointer, resolvePointer } from './json-pointer.ts';
import { readBytes, type LocatedOutput } from './locate.ts';
import { count, fitText, PageRefusal, pageCost, type PageBody, type PageQuery } from './page.ts';

/** Largest output parsed whole to select JSON: parsing takes several times its size in memory. */
export const MAX_PARSED_BYTES = OutputLimits.maxParsedBytes;

type JsonQuery = Extract<PageQuery, { mode: 'json' }>;

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** The document, parsed; refused above the size cap or when it is not JSON. */
async function parseDocument(storage: RangeReader, located: LocatedOutput): Promise<unknown> {
  const { size } = located.facts;
  if (size > MAX_PARSED_BYTES) {
    throw new PageRefusal(
      `The output is ${formatSize(size)}, more than the ${formatSize(MAX_PARSED_BYTES)} that can be parsed whole ` +
        `to select JSON. Read it by offset or by line instead, or search it for the text you need.`,
    );
  }
  const text = (await readBytes(storage, located, 0, size)).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PageRefusal(
      `The output (${located.facts.mimeType}) is not valid JSON (${clientText((error as Error).message, 160)}). ` +
        `Read it by offset or by line instead, or search it.`,
    );
  }
}

/** Items `item`… of an array, as a JSON array, as many as asked for and the budget allows. */
function arrayItems(
  value: unknown[],
  pointer: string,
  query: JsonQuery,
): Pick<PageBody, 'text' | 'truncated'> & { next?: number } {
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
  if (items.length === 0) {
    const size = formatSize(bytesOf(JSON.stringify(value[query.item])));
    throw new PageRefusal(
      `item ${count(query.item)} of ${pointer || 'the document'} is ${size}, more than one page: select inside it ` +
        `with pointer "${pointer}/${query.item}/…", or read the output by offset.`,
    );
  }
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
    if (cost + pageCost(line) + 1 > query.budget) break;
    lines.push(line);
    cost += pageCost(line) + 1;
  }
  return { text: lines.join('\n'), ...(at < keys.length ? { next: at } : {}) };
}

/**
 * The value a JSON Pointer selects, with its type and size: arrays a page of items at a time, objects whole when
 * they fit a page and otherwise as a list of their members, scalars whole or, for a long string, its start.
 */
export async function jsonPage(
  storage: RangeReader,
  located: LocatedOutput,
  query: JsonQuery,
): Promise<PageBody> {
  const tokens = parsePointer(query.pointer);
  if (!tokens.ok) throw new PageRefusal(tokens.message);
  const root = await parseDocument(storage, located);
  const found = resolvePointer(root, tokens.value);
  if (!found.ok) throw new PageRefusal(found.message);
  const value = found.value;
  const pointer = formatPointer(tokens.value);
  // Repeated in sentences to the model: capped, as every client-supplied string is.
  const shown = clientText(pointer);
  const serialized = JSON.stringify(value);
  const type = jsonType(value);
  const json: NonNullable<PageBody['json']> = { pointer, type, size: bytesOf(serialized) };
  const base = { ...located.facts, mode: 'json' as const };
  if (Array.isArray(value)) {
    const { next, ...page } = arrayItems(value, shown, query);
    return {
      ...base,
      ...page,
      json: {
        ...json,
        length: value.length,
        item: query.item,
        ...(next !== undefined ? { nextItem: next } : {}),
      },
    };
  }
  const object = type === 'object' ? (value as Record<string, unknown>) : undefined;
  if (object && (query.item > 0 || pageCost(serialized) > query.budget)) {
    const { next, text } = objectMembers(object, query);
    const length = Object.keys(object).length;
    return {
      ...base,
      text,
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
  return {
    ...base,
    text: fitText(serialized, query.budget),
    truncated: true,
    json,
    note: `the ${type} is larger than one page: this is its start. Read the whole output by offset to see the rest.`,
  };
}
