/**
 * Every kind of character the part sizing treats differently: plain ASCII, JSON escapes, control characters,
 * two- to four-byte UTF-8, and U+2028 (escaped by some serializers).
 */
export const MIXED_CHARS = [
  'a',
  'Z',
  ' ',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0001',
  '\u007f',
  'é',
  '€',
  '\u2028',
  '😀',
];

/** Lone surrogates: a string may hold them, UTF-8 cannot. */
export const LONE_SURROGATES = ['\ud800', '\udc00'];

/** A deterministic text of `length` characters drawn from `alphabet` (a linear congruential generator), by seed. */
export function seededText(length: number, seed: number, alphabet: readonly string[] = MIXED_CHARS): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}
