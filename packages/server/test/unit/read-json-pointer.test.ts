import { describe, expect, it } from 'vitest';
import { formatPointer, parsePointer, resolvePointer } from '../../src/outputs/paging/json-pointer.ts';
import { locateValue } from '../../src/outputs/paging/json-locate.ts';

// RFC 6901: the JSON string form of a pointer, its escapes and its evaluation, with the examples of section 5.
const DOC = {
  foo: ['bar', 'baz'],
  '': 0,
  'a/b': 1,
  'c%d': 2,
  'e^f': 3,
  'g|h': 4,
  'i\\j': 5,
  'k"l': 6,
  ' ': 7,
  'm~n': 8,
};

const select = (pointer: string) => {
  const tokens = parsePointer(pointer);
  if (!tokens.ok) throw new Error(tokens.message);
  return resolvePointer(DOC, tokens.value);
};

describe('JSON Pointer (RFC 6901)', () => {
  it.each([
    ['', DOC],
    ['/foo', ['bar', 'baz']],
    ['/foo/0', 'bar'],
    ['/', 0],
    ['/a~1b', 1],
    ['/c%d', 2],
    ['/e^f', 3],
    ['/g|h', 4],
    ['/i\\j', 5],
    ['/k"l', 6],
    ['/ ', 7],
    ['/m~0n', 8],
  ])('%j selects what section 5 says', (pointer, expected) => {
    expect(select(pointer)).toEqual({ ok: true, value: expected });
  });

  it('unescapes ~1 before ~0, so "~01" is the member "~1"', () => {
    expect(parsePointer('/~01')).toEqual({ ok: true, value: ['~1'] });
  });

  it('writes tokens back with the escapes', () => {
    expect(formatPointer(['a/b', 'm~n', '0'])).toBe('/a~1b/m~0n/0');
  });

  it.each([
    ['foo', /must be "" \(the whole document\) or start with "\/"/],
    ['#/foo', /URI fragment form; pass the plain form without "#"/],
    ['/a~2b', /"~" not followed by 0 or 1; write "~0" for "~" and "~1" for "\/"/],
    ['/a~', /"~" not followed by 0 or 1/],
  ])('explains the syntax error in %j', (pointer, message) => {
    const parsed = parsePointer(pointer);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(message);
  });

  it.each([
    ['/foo/2', /\/foo is an array of 2 items \(indexes 0 to 1\); "2" is not one of its indexes/],
    ['/foo/01', /"01" is not one of its indexes/],
    ['/foo/-', /"-" is not one of its indexes/],
    ['/nope', /\(the root\) is an object with 10 members and no member "nope"; its members include "foo"/],
    ['/foo/0/x', /\/foo\/0 is a string, which has no members/],
  ])('names where %j stops and what is there', (pointer, message) => {
    const found = select(pointer);
    expect(found.ok).toBe(false);
    expect(!found.ok && found.message).toMatch(message);
  });

  it('finds only own members: "__proto__" and "constructor" are ordinary names', () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}}');
    expect(resolvePointer(doc, ['__proto__', 'x'])).toEqual({ ok: true, value: 1 });
    expect(resolvePointer({}, ['constructor']).ok).toBe(false);
  });

  it('caps the member names it repeats', () => {
    const found = resolvePointer({}, ['x'.repeat(10_000)]);
    expect(!found.ok && found.message.length).toBeLessThan(400);
  });
});

describe('where a selected value lies in the stored text', () => {
  const text =
    ' {\n  "a\\"b" : [ 1 , "x\\\\" , {"c": [true, null]} ],\n  "dup": 1, "dup": "last",\n  "e~/": -1.5e3 }\n';
  const slice = (tokens: string[]) => {
    const range = locateValue(text, tokens);
    return range && text.slice(range.start, range.end);
  };

  it.each([
    [[], text.trim()],
    [['a"b'], '[ 1 , "x\\\\" , {"c": [true, null]} ]'],
    [['a"b', '1'], '"x\\\\"'],
    [['a"b', '2', 'c', '1'], 'null'],
    [['dup'], '"last"'],
    [['e~/'], '-1.5e3'],
  ])('selects %j exactly as stored, whitespace and escapes kept', (tokens, expected) => {
    expect(slice(tokens)).toBe(expected);
    expect(resolvePointer(JSON.parse(text), tokens)).toEqual({ ok: true, value: JSON.parse(expected) });
  });

  it('finds nothing where the pointer leads nowhere', () => {
    expect(slice(['missing'])).toBeUndefined();
    expect(slice(['a"b', '3'])).toBeUndefined();
    expect(slice(['dup', 'x'])).toBeUndefined();
  });
});
