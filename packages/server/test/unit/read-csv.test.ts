import { describe, expect, it } from 'vitest';
import { CsvParser, CsvRecordTooLong, type CsvRecord } from '../../src/outputs/paging/csv.ts';

/** Parses text fed in pieces of the given size (every cut must give the same records). */
function parse(text: string, piece = text.length || 1, max = 1 << 20): CsvRecord[] {
  const parser = new CsvParser(max);
  const out: CsvRecord[] = [];
  for (let at = 0; at < text.length; at += piece) out.push(...parser.push(text.slice(at, at + piece)));
  return [...out, ...parser.end()];
}

const fields = (text: string, piece?: number) => parse(text, piece).map((r) => r.fields);

describe('the CSV parser (RFC 4180)', () => {
  it.each([
    [
      'a,b,c\n1,2,3\n',
      [
        ['a', 'b', 'c'],
        ['1', '2', '3'],
      ],
    ],
    [
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'a,b\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['"a,1","b\nc"\n', [['a,1', 'b\nc']]],
    ['"say ""hi""",x\n', [['say "hi"', 'x']]],
    ['"",x,\n', [['', 'x', '']]],
    [',\n', [['', '']]],
    ['a\n\nb\n', [['a'], [''], ['b']]],
    ['"a\r\nb"\r\n', [['a\r\nb']]],
    ['"a\r"\r\n', [['a\r']]],
    ['ab"c,d\n', [['ab"c', 'd']]],
    ['"ab"c,d\n', [['abc', 'd']]],
    ['é,😀\n', [['é', '😀']]],
    ['', []],
  ])('parses %j', (text, expected) => {
    expect(fields(text)).toEqual(expected);
  });

  it('gives the same records however the text is cut', () => {
    const text = 'id,"note, with comma",x\r\n1,"line\none ""q""",\n2,plain,"tail"\n"3",,\r\n4,"a\r\nb",c';
    const whole = parse(text);
    for (let piece = 1; piece <= 9; piece++) expect(parse(text, piece)).toEqual(whole);
  });

  it('keeps each record exactly as it was written, line break included', () => {
    const text = 'a,"b\nc"\r\n1,2\n3';
    expect(parse(text).map((r) => r.raw)).toEqual(['a,"b\nc"\r\n', '1,2\n', '3']);
    expect(
      parse(text)
        .map((r) => r.raw)
        .join(''),
    ).toBe(text);
  });

  it('refuses a record longer than the cap, such as one behind an unclosed quote', () => {
    expect(() => parse(`a,"${'x'.repeat(100)}`, 10, 50)).toThrow(CsvRecordTooLong);
    expect(() => parse(`${'y,'.repeat(40)}\n`, 200, 50)).toThrow(CsvRecordTooLong);
  });

  it('ends an unclosed quote with the text', () => {
    expect(fields('a,"open\nmore')).toEqual([['a', 'open\nmore']]);
  });
});
