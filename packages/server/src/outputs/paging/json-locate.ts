/**
 * Where a value lies in the text of a JSON document, so a value too large for one page can be read on by byte
 * offset: the document is walked along the pointer's tokens without building values. It runs only on text that
 * `JSON.parse` accepted, so it need not check the grammar. Pure.
 */

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** The index of the first character at or after `at` that is not whitespace. */
function skipSpace(text: string, at: number): number {
  while (WHITESPACE.has(text[at]!)) at++;
  return at;
}

/** The index just past the string that starts (with its quote) at `at`. */
function skipString(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); ; quote = text.indexOf('"', quote + 1)) {
    let slashes = 0;
    while (text[quote - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 0) return quote + 1;
  }
}

/** The index just past the value that starts at `at`. */
function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return skipString(text, at);
  if (first !== '{' && first !== '[') {
    let end = at;
    while (end < text.length && !WHITESPACE.has(text[end]!) && !',]}'.includes(text[end]!)) end++;
    return end;
  }
  let depth = 0;
  for (let i = at; ; i++) {
    const c = text[i];
    if (c === '"') i = skipString(text, i) - 1;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
}

/** The start of the member named `token` of the object at `at` (its last, as `JSON.parse` keeps), if any. */
function memberStart(text: string, at: number, token: string): number | undefined {
  let found: number | undefined;
  let i = skipSpace(text, at + 1);
  while (text[i] === '"') {
    const keyEnd = skipString(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    const value = skipSpace(text, skipSpace(text, keyEnd) + 1);
    if (name === token) found = value;
    i = skipSpace(text, skipValue(text, value));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return found;
}

/** The start of item `index` of the array at `at`, if it has one. */
function itemStart(text: string, at: number, index: number): number | undefined {
  let i = skipSpace(text, at + 1);
  for (let n = 0; text[i] !== ']'; n++) {
    if (n === index) return i;
    i = skipSpace(text, skipValue(text, i));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return undefined;
}

/**
 * The character range `[start, end)` of the value the tokens select in `text` (array indexes as decimal tokens),
 * or undefined when there is none.
 */
export function locateValue(
  text: string,
  tokens: readonly string[],
): { start: number; end: number } | undefined {
  let at = skipSpace(text, 0);
  for (const token of tokens) {
    const next =
      text[at] === '{'
        ? memberStart(text, at, token)
        : text[at] === '['
          ? itemStart(text, at, Number(token))
          : undefined;
    if (next === undefined) return undefined;
    at = next;
  }
  return { start: at, end: skipValue(text, at) };
}
