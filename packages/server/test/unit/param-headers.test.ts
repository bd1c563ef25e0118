import { describe, expect, it } from 'vitest';
import { paramHeaderValue, scanParamHeaders, valueAtPath } from '../../src/tools/param-headers.ts';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('x-mcp-header declarations (2026-07-28 Streamable HTTP, "Schema Extension")', () => {
  it('finds declarations at any depth through properties', () => {
    const schema = obj({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      opts: obj({ count: { type: 'integer', 'x-mcp-header': 'Count' } }),
      dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      plain: { type: 'string' },
    });
    expect(scanParamHeaders('t', schema)).toEqual([
      { path: ['region'], name: 'Region', type: 'string' },
      { path: ['opts', 'count'], name: 'Count', type: 'integer' },
      { path: ['dry'], name: 'Dry-Run', type: 'boolean' },
    ]);
  });

  it('a schema without declarations has none', () => {
    expect(scanParamHeaders('t', obj({ a: { type: 'string' } }))).toEqual([]);
  });

  it.each([
    ['a number parameter', obj({ n: { type: 'number', 'x-mcp-header': 'N' } }), /string, integer or boolean/],
    [
      'an object parameter',
      obj({ o: { type: 'object', 'x-mcp-header': 'O' } }),
      /string, integer or boolean/,
    ],
    ['a parameter without a type', obj({ u: { 'x-mcp-header': 'U' } }), /string, integer or boolean/],
    [
      'a union type',
      obj({ u: { type: ['string', 'null'], 'x-mcp-header': 'U' } }),
      /string, integer or boolean/,
    ],
    ['an empty name', obj({ a: { type: 'string', 'x-mcp-header': '' } }), /HTTP token/],
    ['a name with a space', obj({ a: { type: 'string', 'x-mcp-header': 'My Header' } }), /HTTP token/],
    ['a name with a colon', obj({ a: { type: 'string', 'x-mcp-header': 'A:B' } }), /HTTP token/],
    ['a name with CR LF', obj({ a: { type: 'string', 'x-mcp-header': 'A\r\nX-Evil' } }), /HTTP token/],
    ['a non-string name', obj({ a: { type: 'string', 'x-mcp-header': 5 } }), /HTTP token/],
    [
      'names that differ only in case',
      obj({
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'string', 'x-mcp-header': 'region' },
      }),
      /duplicates "Region"/,
    ],
    [
      'a declaration under items',
      obj({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } }),
      /reachable/,
    ],
    [
      'a declaration under oneOf',
      obj({ a: { oneOf: [{ type: 'string', 'x-mcp-header': 'A' }] } }),
      /reachable/,
    ],
    [
      'a declaration under additionalProperties',
      obj({}, { additionalProperties: { type: 'string', 'x-mcp-header': 'A' } }),
      /reachable/,
    ],
    [
      'a declaration under $defs',
      obj({}, { $defs: { d: { type: 'string', 'x-mcp-header': 'D' } } }),
      /reachable/,
    ],
    [
      'a declaration under properties inside anyOf',
      obj({}, { anyOf: [obj({ a: { type: 'string', 'x-mcp-header': 'A' } })] }),
      /reachable/,
    ],
    ['a declaration on the root', { type: 'object', 'x-mcp-header': 'Root' }, /reachable/],
  ])('refuses %s at definition time', (_name, schema, message) => {
    expect(() => scanParamHeaders('tool_x', schema)).toThrow(message);
    expect(() => scanParamHeaders('tool_x', schema)).toThrow(/Tool "tool_x"/);
  });
});

describe('header values of arguments', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['', ''],
    [42, '42'],
    [-7, '-7'],
    [true, 'true'],
    [false, 'false'],
    [1.5, undefined],
    [2 ** 53, undefined],
    [null, undefined],
    [{}, undefined],
  ])('%j is mirrored as %j', (value, header) => {
    expect(paramHeaderValue(value)).toBe(header);
  });

  it('reads an argument by its path, and nothing through non-objects', () => {
    expect(valueAtPath({ a: { b: 1 } }, ['a', 'b'])).toBe(1);
    expect(valueAtPath({ a: 'x' }, ['a', 'b'])).toBeUndefined();
    expect(valueAtPath(undefined, ['a'])).toBeUndefined();
    expect(valueAtPath({ a: [1] }, ['a', '0'])).toBeUndefined();
  });
});
