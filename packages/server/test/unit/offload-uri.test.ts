import { describe, expect, it } from 'vitest';
import {
  hasOutputScheme,
  MAX_PARTS,
  newOutputId,
  outputKey,
  outputUri,
  outputUriParser,
} from '../../src/outputs/uri.ts';

const ID = '0123456789abcdef0123456789abcdef';
const parse = outputUriParser('outputs/');

describe('stored-output URIs', () => {
  it('new ids carry 128 random bits as 32 lower-case hex digits and do not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, newOutputId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a URI is the scheme followed by exactly the storage key', () => {
    expect(outputUri('outputs/', { id: ID })).toBe(`mcp-output://outputs/${ID}`);
    expect(outputKey('outputs/', { id: ID })).toBe(`outputs/${ID}`);
    expect(outputUri('a/b/', { id: ID, part: 7 })).toBe(`mcp-output://a/b/${ID}/part-7`);
    expect(outputKey('a/b/', { id: ID, part: 7 })).toBe(`a/b/${ID}/part-7`);
  });

  it("puts an authenticated caller's output in that caller's key space, which the URI does not reveal", () => {
    const owner = 'ab'.repeat(32);
    expect(outputKey('outputs/', { id: ID }, owner)).toBe(`outputs/${owner}/${ID}`);
    expect(outputKey('outputs/', { id: ID, part: 2 }, owner)).toBe(`outputs/${owner}/${ID}/part-2`);
    expect(() => outputKey('outputs/', { id: ID }, '../other')).toThrow();
  });

  it('refuses to build a URI or key from an id or part number it would not parse', () => {
    expect(() => outputKey('outputs/', { id: '../x' })).toThrow();
    expect(() => outputKey('outputs/', { id: ID, part: 0 })).toThrow();
    expect(() => outputUri('outputs/', { id: ID, part: MAX_PARTS + 1 })).toThrow();
  });

  it.each([
    ['a whole output', `mcp-output://outputs/${ID}`, { id: ID }],
    ['part 1', `mcp-output://outputs/${ID}/part-1`, { id: ID, part: 1 }],
    ['the last allowed part', `mcp-output://outputs/${ID}/part-${MAX_PARTS}`, { id: ID, part: MAX_PARTS }],
  ])('parses %s', (_what, uri, expected) => {
    expect(parse(uri)).toEqual(expected);
  });

  it.each([
    ['an empty string', ''],
    ['another scheme', `s3://outputs/${ID}`],
    ['the scheme in upper case', `MCP-OUTPUT://outputs/${ID}`],
    ['a foreign prefix', `mcp-output://other/${ID}`],
    ['a prefix that only starts the same', `mcp-output://outputs-x/${ID}`],
    ['a nested prefix', `mcp-output://outputs/x/${ID}`],
    ['no prefix', `mcp-output://${ID}`],
    ['a truncated id', `mcp-output://outputs/${ID.slice(0, 31)}`],
    ['a longer id', `mcp-output://outputs/${ID}0`],
    ['an upper-case id', `mcp-output://outputs/${ID.toUpperCase()}`],
    ['a non-hex id', `mcp-output://outputs/${ID.slice(0, 31)}g`],
    ['a path traversal', `mcp-output://outputs/../secrets/${ID}`],
    ['a dot segment after the id', `mcp-output://outputs/${ID}/../${ID}`],
    ['percent escapes', `mcp-output://outputs/%2e%2e/${ID}`],
    ['an encoded slash', `mcp-output://outputs%2F${ID}`],
    ['a query', `mcp-output://outputs/${ID}?x=1`],
    ['a fragment', `mcp-output://outputs/${ID}#part-1`],
    ['a trailing slash', `mcp-output://outputs/${ID}/`],
    ['part 0', `mcp-output://outputs/${ID}/part-0`],
    ['a part with a leading zero', `mcp-output://outputs/${ID}/part-01`],
    ['a part beyond the maximum', `mcp-output://outputs/${ID}/part-${MAX_PARTS + 1}`],
    ['a negative part', `mcp-output://outputs/${ID}/part--1`],
    ['white space', ` mcp-output://outputs/${ID}`],
    ['a trailing newline', `mcp-output://outputs/${ID}\n`],
    ['a very long URI', `mcp-output://outputs/${ID}${'a'.repeat(600)}`],
  ])('rejects %s', (_what, uri) => {
    expect(parse(uri)).toBeUndefined();
  });

  it('claims every URI of its scheme, in any case, and no other', () => {
    expect(hasOutputScheme(`mcp-output://anything`)).toBe(true);
    expect(hasOutputScheme(`MCP-Output:x`)).toBe(true);
    expect(hasOutputScheme('docs://server/about')).toBe(false);
    expect(hasOutputScheme('mcp-outputs://x')).toBe(false);
  });
});
