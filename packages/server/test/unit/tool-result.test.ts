import { describe, expect, it } from 'vitest';
import { contentBlockProblem, toCallToolResult, toolErrorResult } from '../../src/tools/result.ts';

const link = { type: 'resource_link', uri: 'docs://a', name: 'a' };

describe('toCallToolResult normalises what a handler returns (spec: tools, "Tool Result")', () => {
  it.each([
    ['a string', 'hi', { content: [{ type: 'text', text: 'hi' }] }],
    ['an empty string', '', { content: [{ type: 'text', text: '' }] }],
    ['one block', link, { content: [link] }],
    ['a block array', [link, { type: 'text', text: 'x' }], { content: [link, { type: 'text', text: 'x' }] }],
    ['an empty array', [], { content: [] }],
    [
      'a full result',
      { content: [{ type: 'text', text: 'x' }], isError: true },
      { content: [{ type: 'text', text: 'x' }], isError: true },
    ],
    ['undefined', undefined, { content: [] }],
    ['null', null, { content: [] }],
    [
      'a plain object (structured content plus its serialized text)',
      { a: 1, b: [true] },
      { content: [{ type: 'text', text: '{"a":1,"b":[true]}' }], structuredContent: { a: 1, b: [true] } },
    ],
    [
      'a number (text only: handshake-era structuredContent is an object)',
      42,
      { content: [{ type: 'text', text: '42' }] },
    ],
    ['a boolean', false, { content: [{ type: 'text', text: 'false' }] }],
    ['an array of plain values', [1, 'a'], { content: [{ type: 'text', text: '[1,"a"]' }] }],
    ['a function (not JSON)', () => 1, { content: [] }],
  ])('%s', (_name, value, expected) => {
    expect(toCallToolResult(value)).toEqual(expected);
  });

  it('an object that serializes to an object keeps its structured form', () => {
    const value = { toJSON: () => ({ x: 1 }) };
    const result = toCallToolResult(value);
    expect(result.content).toEqual([{ type: 'text', text: '{"x":1}' }]);
    expect(JSON.parse(JSON.stringify(result.structuredContent))).toEqual({ x: 1 });
  });

  it('a Date becomes text only (it serializes to a string)', () => {
    expect(toCallToolResult(new Date(0))).toEqual({
      content: [{ type: 'text', text: '"1970-01-01T00:00:00.000Z"' }],
    });
  });
});

describe('contentBlockProblem (spec schema ContentBlock)', () => {
  it.each([
    { type: 'text', text: 'x' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    link,
    { type: 'resource', resource: { uri: 'docs://a', text: 'x' } },
    { type: 'resource', resource: { uri: 'docs://a', blob: 'AAAA' } },
  ])('accepts a valid $type block', (block) => {
    expect(contentBlockProblem(block)).toBeUndefined();
  });

  it.each([null, 'text', {}, { type: 'html', html: '<p>' }])('refuses %j', (block) => {
    expect(contentBlockProblem(block)).toMatch(/content block must have type/);
  });
});

describe('toolErrorResult', () => {
  it('is an isError result with one text block', () => {
    expect(toolErrorResult('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
  });
});
