import { OutputLimits } from '../limits.ts';
/**
 * How an output is cut into parts so that each part fits one `resources/read` response.
 *
 * Lambda returns at most 6 MB (6,291,456 bytes) from a synchronous invocation. A part travels as a JSON-RPC
 * response, and that JSON is itself a string inside the API Gateway result JSON, so text is escaped twice: a
 * quote costs 4 bytes, a newline 3, another control character 7 (`\\u0001`). Parts are therefore sized by that
 * doubly escaped size, not by their byte count, and text stays text for the model. Binary parts are sized by
 * their base64 length (base64 needs no escaping). The budget leaves a megabyte for the envelopes.
 */
export const PART_BUDGET_BYTES = OutputLimits.partBudgetBytes;

/** Size of one UTF-16 code unit (or surrogate pair) of text after two rounds of JSON string escaping. */
function unitCost(code: number): number {
  if (code < 0x80) {
    if (code === 0x22 || code === 0x5c) return 4; // " and \ → \\\" and \\\\
    if (code >= 0x20) return 1;
    return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 3 : 7;
  }
  return code < 0x800 ? 2 : 3;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Walks a text by code points and calls `visit(index, cost)` for each; a well-formed surrogate pair is one step
 * (4 UTF-8 bytes), a lone surrogate costs what JSON.stringify makes of it (`\\udxxx`).
 */
function walk(text: string, visit: (index: number, width: number, cost: number) => boolean | void): void {
  const n = text.length;
  for (let i = 0; i < n;) {
    const code = text.charCodeAt(i);
    let width = 1;
    let cost: number;
    if (isHigh(code) && i + 1 < n && isLow(text.charCodeAt(i + 1))) {
      width = 2;
      cost = 4;
    } else if (isHigh(code) || isLow(code)) {
      cost = 7;
    } else {
      cost = unitCost(code);
    }
    if (visit(i, width, cost) === false) return;
    i += width;
  }
}

/** Size of a text once JSON-escaped twice, in bytes (its cost inside a Lambda response). */
export function doublyEscapedBytes(text: string): number {
  let total = 0;
  walk(text, (_i, _w, cost) => {
    total += cost;
  });
  return total;
}

/**
 * Cuts a text into the fewest parts whose doubly escaped size is at most `budget` each, only between code
 * points, so the parts joined in order are exactly the original. An empty text is one empty part.
 */
export function splitText(text: string, budget = PART_BUDGET_BYTES): string[] {
  if (!Number.isInteger(budget) || budget < 8)
    throw new Error('part budget must be an integer of at least 8');
  const parts: string[] = [];
  let start = 0;
  let used = 0;
  walk(text, (i, _w, cost) => {
    if (used + cost > budget && i > start) {
      parts.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += cost;
  });
  parts.push(text.slice(start));
  return parts;
}

/** Largest binary part whose base64 form fits the budget (a multiple of 3 bytes). */
export function binaryPartBytes(budget = PART_BUDGET_BYTES): number {
  return Math.floor(budget / 4) * 3;
}

/** Cuts bytes into the fewest parts whose base64 length is at most `budget` each. Empty bytes are one part. */
export function splitBytes(bytes: Uint8Array, budget = PART_BUDGET_BYTES): Uint8Array[] {
  const size = binaryPartBytes(budget);
  if (size < 3) throw new Error('part budget must be at least 4');
  if (bytes.byteLength <= size) return [bytes];
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += size) {
    parts.push(bytes.subarray(offset, Math.min(bytes.byteLength, offset + size)));
  }
  return parts;
}
