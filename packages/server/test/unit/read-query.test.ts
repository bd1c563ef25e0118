import { describe, expect, it } from 'vitest';
import { OutputLimits } from '../../src/limits.ts';
import { MAX_POSITION, pageBudget, readQuery } from '../../src/outputs/read-query.ts';

const uri = 'mcp-output://outputs/0123456789abcdef0123456789abcdef';
const BUDGET = 16_384;

describe('read_output arguments', () => {
  it('reads bytes from the start by default, half a page at a time', () => {
    expect(readQuery({ uri }, BUDGET)).toEqual({ mode: 'bytes', offset: 0, length: 8192, budget: BUDGET });
    expect(readQuery({ uri, offset: 5, count: 10 }, BUDGET)).toMatchObject({
      mode: 'bytes',
      offset: 5,
      length: 10,
    });
  });

  it('chooses the way to read from where the page starts', () => {
    expect(readQuery({ uri, line: 3 }, BUDGET)).toMatchObject({ mode: 'lines', line: 3, lines: 100 });
    expect(readQuery({ uri, search: 'x' }, BUDGET)).toMatchObject({
      mode: 'search',
      text: 'x',
      ignoreCase: false,
      context: 2,
      maxMatches: 20,
      line: 1,
    });
    expect(
      readQuery({ uri, search: 'x', line: 40, ignoreCase: true, context: 0, count: 5 }, BUDGET),
    ).toMatchObject({ mode: 'search', line: 40, ignoreCase: true, context: 0, maxMatches: 5 });
    expect(readQuery({ uri, pointer: '/a' }, BUDGET)).toMatchObject({
      mode: 'json',
      pointer: '/a',
      item: 0,
      items: 50,
    });
    expect(readQuery({ uri, item: 7 }, BUDGET)).toMatchObject({ mode: 'json', pointer: '', item: 7 });
    expect(readQuery({ uri, row: 2, count: 3 }, BUDGET)).toMatchObject({ mode: 'csv', row: 2, rows: 3 });
  });

  it('caps counts at what one page can hold', () => {
    expect(readQuery({ uri, search: 'x', count: 1_000_000 }, BUDGET)).toMatchObject({ maxMatches: 100 });
    expect(readQuery({ uri, line: 1, count: 1_000_000 }, BUDGET)).toMatchObject({ lines: 10_000 });
  });

  it.each([
    [
      { uri, offset: 1, search: 'x' },
      /Choose one way to read per call: .*This call combined offset, search\./,
    ],
    [{ uri, line: 1, row: 2 }, /combined line, row/],
    [{ uri, pointer: '', row: 1 }, /combined pointer, row/],
    [{ uri, ignoreCase: true }, /ignoreCase and context go with search/],
    [{ uri, line: 2, context: 1 }, /ignoreCase and context go with search/],
    [{ uri, offset: 1e15 }, /^offset must be at most 1000000000000 \(it was 1000000000000000\)\.$/],
    [{ uri, row: 1e300 }, /^row must be at most 1000000000000/],
    [{ uri, line: MAX_POSITION + 1 }, /^line must be at most/],
    [{ uri, pointer: '', item: 2 ** 60 }, /^item must be at most/],
    [{ uri, count: 2 ** 53 }, /^count must be at most/],
    [{ uri, search: 'x'.repeat(1001) }, /^search must be at most 1000 characters \(it had 1001\)\.$/],
    [{ uri, pointer: '/'.repeat(2001) }, /^pointer must be at most 2000 characters/],
  ])('refuses %j with what to do instead', (args, message) => {
    const query = readQuery(args, BUDGET);
    expect('refuse' in query && query.refuse).toMatch(message);
  });

  it('sizes pages at half the offload threshold, within the page bounds', () => {
    expect(pageBudget(32 * 1024)).toBe(16 * 1024);
    expect(pageBudget(100)).toBe(OutputLimits.minPageBytes);
    expect(pageBudget(1024 * 1024)).toBe(OutputLimits.maxPageBytes);
  });
});
