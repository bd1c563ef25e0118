import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import type { PageOutcome } from '../../src/outputs/paging/page.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import { readQuery, type ReadOutputArgs } from '../../src/outputs/read-query.ts';
import { memoryStorage } from '../../src/storage/memory.ts';

// The page-reading engine over in-memory storage: what each way of reading returns at the edges (characters cut
// by offsets, lines longer than a page, matches across pieces, parts, old outputs) and what it refuses.

const BUDGET = 4096;
const ctx = { era: 'handshake' as const, requestId: 'r', log: silentLogger };

function setup(options: { partBudget?: number; now?: () => number; scanBudgetMs?: number } = {}) {
  const storage = memoryStorage();
  const offloader = createOffloader({
    storage,
    prefix: 'outputs/',
    thresholdBytes: 10,
    ttlDays: 1,
    ...(options.now ? { now: options.now } : {}),
    ...(options.partBudget ? { limits: { partBudgetBytes: options.partBudget } } : {}),
  });
  const pages = storedOutputPages({
    storage,
    prefix: 'outputs/',
    ...(options.scanBudgetMs !== undefined ? { scanBudgetMs: options.scanBudgetMs } : {}),
  });
  const store = async (content: string | Uint8Array, principal?: string, mimeType = 'text/plain') => {
    const block =
      typeof content === 'string'
        ? { type: 'text' as const, text: content }
        : { type: 'image' as const, data: Buffer.from(content).toString('base64'), mimeType: 'image/png' };
    const result = await offloader.apply(
      mimeType === 'text/plain'
        ? { content: [block] }
        : { content: [{ type: 'text', text: content as string }] },
      { tool: 't', requestId: 'r', log: silentLogger, ...(principal ? { principal } : {}) },
    );
    const links = result.content.filter((b) => b.type === 'resource_link');
    return links.map((l) => l.uri);
  };
  const read = (
    uri: string,
    args: Omit<ReadOutputArgs, 'uri'> = {},
    principal?: string,
  ): Promise<PageOutcome> => {
    const query = readQuery({ uri, ...args }, BUDGET);
    if ('refuse' in query) throw new Error(query.refuse);
    return pages.readPage(uri, query, { ...ctx, ...(principal ? { principal } : {}) });
  };
  return { storage, store, read };
}

const page = (outcome: PageOutcome) => {
  if (outcome.status !== 'page') throw new Error(`expected a page, got ${JSON.stringify(outcome)}`);
  return outcome.page;
};
const refusal = (outcome: PageOutcome) => (outcome.status === 'refused' ? outcome.message : outcome.status);

describe('byte pages', () => {
  it('move an offset inside a character back to its start, and an end inside one back before it', async () => {
    const { store, read } = setup();
    const [uri] = await store('aé😀b'.repeat(10));
    const p = page(await read(uri!, { offset: 2, count: 4 }));
    expect(p).toMatchObject({ offset: 1, length: 2, nextOffset: 3, text: 'é' });
    expect(p.note).toMatch(/offset 2 falls inside a character: the page starts at 1/);
    expect(page(await read(uri!, { offset: 3, count: 1 }))).toMatchObject({
      text: '😀',
      offset: 3,
      length: 4,
    });
  });

  it('stop early when the text escapes to more than a page, and say where the next page starts', async () => {
    const { store, read } = setup();
    const [uri] = await store('"\u0001'.repeat(3000));
    const p = page(await read(uri!, { count: BUDGET }));
    expect(p.truncated).toBe(true);
    expect(p.length).toBeLessThan(BUDGET / 2);
    expect(p.nextOffset).toBe(p.length);
  });

  it('cap the count at one page, and say so', async () => {
    const { store, read } = setup();
    const [uri] = await store('x'.repeat(20_000));
    const p = page(await read(uri!, { count: 1_000_000 }));
    expect(p).toMatchObject({ length: BUDGET, nextOffset: BUDGET });
    expect(p.note).toMatch(/count is capped at 4,096 bytes per page/);
  });

  it('refuse an offset past the end, naming the size', async () => {
    const { store, read } = setup();
    const [uri] = await store('x'.repeat(100));
    expect(refusal(await read(uri!, { offset: 100 }))).toMatch(
      /offset 100 is past the end of the output, which has 100 bytes \(offsets 0 to 99\)/,
    );
  });

  it('read across the parts of an output stored in parts, from any part URI', async () => {
    const { store, read } = setup({ partBudget: 100 });
    const text = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
    const uris = await store(text);
    expect(uris.length).toBeGreaterThan(3);
    for (const uri of [uris[0]!, uris[2]!, uris[0]!.replace(/\/part-1$/, '')]) {
      const p = page(await read(uri, { offset: 90, count: 200 }));
      expect(p.text).toBe(text.slice(90, 290));
      expect(p).toMatchObject({ uri, size: text.length, lines: 60 });
    }
  });
});

describe('line pages', () => {
  it('return whole lines with their byte range, and the next line', async () => {
    const { store, read } = setup({ partBudget: 64 });
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    const [uri] = await store(`${lines.join('\n')}\n`);
    const p = page(await read(uri!, { line: 20, count: 5 }));
    expect(p.text).toBe(`${lines.slice(19, 24).join('\n')}\n`);
    expect(p).toMatchObject({ line: 20, lastLine: 24, nextLine: 25 });
    expect(page(await read(uri!, { line: 48 }))).toMatchObject({
      lastLine: 50,
      text: 'line 48\nline 49\nline 50\n',
    });
    expect(refusal(await read(uri!, { line: 51 }))).toMatch(
      /line 51 is past the end of the output, which has 50 lines/,
    );
  });

  it('give the start of a line longer than a page, and the offset to read on', async () => {
    const { store, read } = setup();
    const [uri] = await store(`short\n${'y'.repeat(10_000)}\nafter`);
    const p = page(await read(uri!, { line: 2 }));
    expect(p).toMatchObject({ line: 2, truncated: true, offset: 6, nextOffset: 6 + p.length! });
    expect(p.note).toMatch(/line 2 is longer than one page/);
  });
});

describe('search', () => {
  it('finds literal text only, case folded when asked, with numbered context', async () => {
    const { store, read } = setup();
    const [uri] = await store('alpha\nBeta (x+)\ngamma\nbeta\ndelta\n');
    const p = page(await read(uri!, { search: 'beta', context: 1 }));
    expect(p.search).toMatchObject({ matchCount: 1, complete: true, matches: [{ line: 4, text: 'beta' }] });
    expect(p.text).toBe('3- gamma\n4: beta\n5- delta');
    const folded = page(await read(uri!, { search: 'BETA', ignoreCase: true, context: 0 }));
    expect(folded.search!.matches.map((m) => m.line)).toEqual([2, 4]);
    expect(page(await read(uri!, { search: '(x+)' })).search!.matchCount).toBe(1);
    expect(page(await read(uri!, { search: 'a.p' })).search!.matchCount).toBe(0);
  });

  it('finds a match split between the pieces of a long line and between parts', async () => {
    const { store, read } = setup({ partBudget: 70_000 });
    const needle = 'NEEDLE-IN-A-LONG-LINE';
    const text = `${'z'.repeat(65_530)}${needle}${'z'.repeat(100_000)}\nlast`;
    const [uri] = await store(text);
    const p = page(await read(uri!, { search: needle }));
    expect(p.search).toMatchObject({ matchCount: 1, matches: [{ line: 1 }] });
    expect(p.search!.matches[0]!.text).toContain(needle);
    expect(p.search!.matches[0]!.text.length).toBeLessThan(300);
  });

  it('shows a few matches at a time and says where the next search starts', async () => {
    const { store, read } = setup();
    const [uri] = await store(
      Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `hit ${i + 1}` : 'miss')).join('\n'),
    );
    const first = page(await read(uri!, { search: 'hit', count: 4, context: 0 }));
    expect(first.search!.matches.map((m) => m.line)).toEqual([1, 4, 7, 10]);
    expect(first).toMatchObject({ nextLine: 13, search: { matchCount: 10 } });
    const next = page(await read(uri!, { search: 'hit', count: 4, context: 0, line: 13 }));
    expect(next.search!.matches.map((m) => m.line)).toEqual([13, 16, 19, 22]);
  });

  it('repeats a long search text in its summary only capped', async () => {
    const { store, read } = setup();
    const [uri] = await store('x'.repeat(5000));
    const p = page(await read(uri!, { search: 'x'.repeat(1000) }));
    expect(p.search!.matchCount).toBe(1);
    expect(p.summary).toContain('… (1000 characters)');
    expect(p.summary.length).toBeLessThan(500);
  });

  it('answers with what it counted when the scan meets its time limit', async () => {
    const { store, read } = setup({ scanBudgetMs: 0 });
    const [uri] = await store(Array.from({ length: 100_000 }, (_, i) => `row ${i}`).join('\n'));
    const p = page(await read(uri!, { search: 'row' }));
    expect(p.search!.complete).toBe(false);
    expect(p.nextLine).toBeGreaterThan(1);
  });
});

describe('JSON selection', () => {
  const doc = {
    items: Array.from({ length: 300 }, (_, i) => ({ i, name: `n${i}` })),
    note: 'x'.repeat(10_000),
  };

  it('pages arrays a few items at a time, as JSON arrays', async () => {
    const { store, read } = setup();
    const [uri] = await store(JSON.stringify(doc));
    const p = page(await read(uri!, { pointer: '/items', item: 10, count: 3 }));
    expect(JSON.parse(p.text)).toEqual(doc.items.slice(10, 13));
    expect(p.json).toMatchObject({ type: 'array', length: 300, item: 10, nextItem: 13 });
  });

  it('lists the members of an object too large for a page, and cuts a long string', async () => {
    const { store, read } = setup();
    const [uri] = await store(JSON.stringify(doc));
    const whole = page(await read(uri!, { pointer: '' }));
    expect(whole.text).toMatch(/^"items": array of 300 items, [\d,]+ bytes\n"note": string, 10,002 bytes$/);
    const note = page(await read(uri!, { pointer: '/note' }));
    expect(note).toMatchObject({ truncated: true, json: { type: 'string', size: 10_002 } });
  });

  it('refuses what is not JSON, and outputs larger than the parse cap', async () => {
    const { store, read } = setup();
    const [uri] = await store('not json at all');
    expect(refusal(await read(uri!, { pointer: '' }))).toMatch(
      /is not valid JSON .*Read it by offset or by line/,
    );
    const [big] = await store(JSON.stringify({ a: 'x'.repeat(9 * 1024 * 1024) }));
    expect(refusal(await read(big!, { pointer: '/a' }))).toMatch(
      /more than the 8,388,608 bytes \(8\.0 MiB\) that can be parsed whole to select JSON/,
    );
  });

  it('refuses to select from JSON nested deeper than the limit, which stays readable as text', async () => {
    const { store, read } = setup();
    const [uri] = await store(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    expect(refusal(await read(uri!, { pointer: '/a' }))).toMatch(
      /nests arrays and objects more than 100 levels deep, too deep to select JSON from\. Read it by offset/,
    );
    expect(page(await read(uri!, { offset: 0, count: 8 })).text).toBe('{"a":[[[');
    const [within] = await store(`{"a":${'['.repeat(99)}${']'.repeat(99)}}`);
    expect(page(await read(within!, { pointer: '/a' })).json).toMatchObject({ type: 'array', length: 1 });
  });
});

describe('CSV rows', () => {
  it('repeats the header and keeps rows as written, quoted line breaks included, across parts', async () => {
    const { store, read } = setup({ partBudget: 80 });
    const rows = Array.from({ length: 20 }, (_, i) => `${i + 1},"multi\nline, ${i}"\r\n`);
    const [uri] = await store(`id,note\r\n${rows.join('')}`);
    const p = page(await read(uri!, { row: 5, count: 3 }));
    expect(p.text).toBe(`id,note\r\n${rows.slice(4, 7).join('')}`);
    expect(p.csv).toEqual({ header: ['id', 'note'], row: 5, rows: 3, nextRow: 8, totalRows: 20 });
    expect(refusal(await read(uri!, { row: 21 }))).toMatch(
      /row 21 is past the end: the output has 20 data rows/,
    );
  });

  it('refuses a record past the cap (an unclosed quote) with the offset where it starts', async () => {
    const { store, read } = setup();
    const before = 'id,note\n1,a\n2,b\n';
    const [uri] = await store(`${before}3,"never closed ${'x'.repeat(1024 * 1024)}`);
    expect(refusal(await read(uri!, { row: 1 }))).toMatch(
      new RegExp(
        `near data row 3 .*Read the output by offset instead, from offset ${before.length} where that record starts`,
      ),
    );
  });

  it('answers a header-only output with no rows, and refuses an empty one', async () => {
    const { store, read } = setup();
    const [uri] = await store('a,b\n'.padEnd(20, ' '));
    expect(page(await read(uri!, { row: 1 })).csv).toMatchObject({ rows: 1, totalRows: 1 });
  });
});

describe('what is not a page', () => {
  it('binary outputs: metadata only, and where to read them instead', async () => {
    const { store, read } = setup();
    const [uri] = await store(new Uint8Array(500).fill(7));
    expect(refusal(await read(uri!))).toMatch(
      /is binary \(image\/png, 500 bytes, SHA-256 [0-9a-f]{64}\), so it cannot be read as text or in pages\. Read it with resources\/read/,
    );
  });

  it('unknown, malformed, expired and other callers\u2019 outputs are all not found', async () => {
    const day = 86_400_000;
    const { store, read } = setup({ now: () => Date.now() - 2 * day });
    const [expired] = await store('x'.repeat(100));
    const fresh = setup();
    const [mine] = await fresh.store('x'.repeat(100), 'alice');
    expect(await read(expired!)).toEqual({ status: 'not_found' });
    expect(await fresh.read(mine!, {}, 'bob')).toEqual({ status: 'not_found' });
    expect(await fresh.read(mine!)).toEqual({ status: 'not_found' });
    expect((await fresh.read(mine!, {}, 'alice')).status).toBe('page');
    for (const uri of [
      'mcp-output://outputs/../x',
      `${mine}?x`,
      'docs://x',
      '',
      `mcp-output://outputs/${'0'.repeat(32)}`,
    ])
      expect(await fresh.read(uri)).toEqual({ status: 'not_found' });
  });

  it('outputs stored in parts before the part table still read, found part by part', async () => {
    const { storage, store, read } = setup({ partBudget: 100 });
    const text = 'abcdefghij'.repeat(40);
    const uris = await store(text);
    const first = storage.objects.get(uris[0]!.slice('mcp-output://'.length))!;
    const {
      'part-sizes': _s,
      'part-newlines': _n,
      'whole-size': _w,
      'whole-sha256': _h,
      lines: _l,
      ...old
    } = first.metadata;
    await storage.put(uris[0]!.slice('mcp-output://'.length), first.body, {
      contentType: first.contentType,
      metadata: old,
    });
    const p = page(await read(uris[1]!, { offset: 150, count: 100 }));
    expect(p.text).toBe(text.slice(150, 250));
    expect(p).not.toHaveProperty('sha256');
    expect(p).not.toHaveProperty('lines');
  });
});
