import { describe, expect, it } from 'vitest';
import { LONE_SURROGATES, MIXED_CHARS, seededText } from '@mcp-lambda/dev/testing';
import { binaryPartBytes, doublyEscapedBytes, splitBytes, splitText } from '../../src/outputs/parts.ts';

/** What a text really costs inside a Lambda response: JSON-escaped, then escaped again as part of a string. */
const actualCost = (text: string) => Buffer.byteLength(JSON.stringify(JSON.stringify(text)), 'utf8') - 6;

const randomText = (length: number, seed: number) =>
  seededText(length, seed, [...MIXED_CHARS, ...LONE_SURROGATES]);

describe('part sizing', () => {
  it.each([
    ['plain ASCII', 'hello world', 11],
    ['a quote', '"', 4],
    ['a backslash', '\\', 4],
    ['a newline', '\n', 3],
    ['a tab', '\t', 3],
    ['another control character', '\u0001', 7],
    ['DEL, which JSON leaves alone', '\u007f', 1],
    ['a two-byte character', 'é', 2],
    ['a three-byte character', '€', 3],
    ['a surrogate pair', '😀', 4],
    ['a lone surrogate', '\ud800', 7],
  ])('counts %s as its doubly escaped size', (_what, text, bytes) => {
    expect(doublyEscapedBytes(text)).toBe(bytes);
    expect(actualCost(text)).toBe(bytes);
  });

  it('matches the real doubly escaped size of mixed text', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const text = randomText(2000, seed);
      expect(doublyEscapedBytes(text)).toBe(actualCost(text));
    }
  });

  it('cuts text into the fewest parts that join back to the original and each fit the budget', () => {
    for (const budget of [8, 64, 1000]) {
      for (let seed = 1; seed <= 10; seed++) {
        const text = randomText(3000, seed);
        const parts = splitText(text, budget);
        expect(parts.join('')).toBe(text);
        const misfits = parts.filter((p) => p.length === 0 || actualCost(p) > budget);
        expect(misfits).toEqual([]);
        // Fewest parts: each part plus the next code point would have overflowed.
        const short = parts.filter(
          (p, i) =>
            i < parts.length - 1 &&
            actualCost(p + String.fromCodePoint(parts[i + 1]!.codePointAt(0)!)) <= budget,
        );
        expect(short).toEqual([]);
      }
    }
  });

  it('never splits a surrogate pair', () => {
    const parts = splitText('😀'.repeat(100), 8);
    expect(parts.every((p) => p === '😀😀')).toBe(true);
  });

  it('keeps an empty text as one empty part', () => {
    expect(splitText('', 100)).toEqual(['']);
  });

  it('cuts bytes into parts whose base64 fits the budget', () => {
    expect(binaryPartBytes(5 * 1024 * 1024)).toBe(3_932_160);
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 256);
    const parts = splitBytes(bytes, 100);
    expect(parts).toHaveLength(Math.ceil(1000 / 75));
    for (const part of parts) expect(Buffer.from(part).toString('base64').length).toBeLessThanOrEqual(100);
    expect(Buffer.concat(parts)).toEqual(Buffer.from(bytes));
    expect(splitBytes(new Uint8Array(), 100)).toHaveLength(1);
  });
});
