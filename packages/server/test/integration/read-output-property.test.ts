import { describe, expect, it } from 'vitest';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { createMcpServer } from '../../src/server.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { defineTool } from '../../src/tools/define.ts';
import { statelessHeaders, statelessMeta, send, pageOf } from '@mcp-lambda/dev/testing';

// Properties of read_output over many random outputs, through a whole server (requests straight into its
// transport, both eras): paging by offset or by line rebuilds the output byte for byte, searches find exactly the
// lines a reference finds, JSON Pointer selections and CSV rows equal what the test's own parse of the source gives.
// Small thresholds and parts make every output span many pages and several parts.

const SEED = Number(process.env.READ_OUTPUT_SEED ?? Date.now() % 100_000);
const CASES = 40;
/** Pages read with a case's own page length before the rest is read in large pages: bounds the reads per case. */
const MAX_PAGES = 300;

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
  };
}

/** Text of about `size` bytes mixing ASCII, escapes, 2-, 3- and 4-byte characters, CRLF and long lines. */
function text(seed: number, size: number): string {
  const r = random(seed);
  const atoms = [
    'alpha',
    'Beta',
    ' ',
    ',',
    '"q"',
    '\\',
    '\t',
    'é',
    '€',
    '😀',
    '漢字',
    '\n',
    '\n',
    '\r\n',
    'x'.repeat(300),
  ];
  const out: string[] = [];
  let bytes = 0;
  while (bytes < size) {
    const atom = r.pick(atoms);
    out.push(atom);
    bytes += Buffer.byteLength(atom);
  }
  return out.join('');
}

const outputs = new Map<string, string>();
const storage = memoryStorage();
const server = createMcpServer({
  info: { name: 'read-property', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'emit',
      description: 'Returns the text registered under a key',
      inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } as const,
      handler: ({ key }) => outputs.get(key)!,
    }),
  ],
  resources: [storedOutputs({ storage, prefix: 'outputs/' })],
  offloader: createOffloader({
    storage,
    prefix: 'outputs/',
    thresholdBytes: 4096,
    ttlDays: 1,
    limits: { partBudgetBytes: 9_000 },
  }),
  outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
});

let id = 0;
async function call(name: string, args: Record<string, unknown>, stateless: boolean) {
  const res = await send(server, {
    ...(stateless ? { headers: statelessHeaders('tools/call', name) } : {}),
    body: {
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name, arguments: args, ...(stateless ? { _meta: statelessMeta() } : {}) },
    },
  });
  return res.json.result;
}

/** Stores a text through a tool call; returns the URI of its first link. */
async function store(value: string, stateless: boolean): Promise<string> {
  const key = String(outputs.size);
  outputs.set(key, value);
  const result = await call('emit', { key }, stateless);
  return result.content.find((b: any) => b.type === 'resource_link').uri;
}

async function read(uri: string, args: Record<string, unknown>, stateless: boolean) {
  const result = await call('read_output', { uri, ...args }, stateless);
  if (result.isError) throw new Error(`read_output ${JSON.stringify(args)}: ${result.content[0].text}`);
  return pageOf(result);
}

describe(`read_output properties (seed ${SEED}; replay with READ_OUTPUT_SEED=${SEED})`, () => {
  it('paging by offset with any page length rebuilds any output byte for byte', async () => {
    const r = random(SEED);
    for (let c = 0; c < CASES; c++) {
      const stateless = c % 2 === 1;
      const source = text(SEED + c, 4097 + r.int(60_000));
      const uri = await store(source, stateless);
      const count = 1 + r.int(3000);
      const pages: Buffer[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        // The same work for every seed: past MAX_PAGES small pages the rest is read in large ones, which still
        // rebuilds the whole output (and pages on from wherever a small page ended).
        const page = await read(uri, { offset, count: pages.length < MAX_PAGES ? count : 65_536 }, stateless);
        expect(page.offset).toBe(offset);
        expect(Buffer.byteLength(page.text)).toBe(page.length);
        pages.push(Buffer.from(page.text, 'utf8'));
        offset = page.nextOffset;
      }
      expect(Buffer.concat(pages).equals(Buffer.from(source, 'utf8')), `case ${c}`).toBe(true);
    }
  });

  it('paging by line rebuilds the output, and each page holds the lines a reference split gives', async () => {
    const r = random(SEED + 1);
    for (let c = 0; c < CASES / 2; c++) {
      const stateless = c % 2 === 0;
      const source = text(SEED + 100 + c, 4097 + r.int(40_000));
      const reference = source.split('\n');
      const uri = await store(source, stateless);
      let line: number | undefined = 1;
      let rebuilt = '';
      while (line !== undefined) {
        const page = await read(uri, { line, count: 1 + r.int(40) }, stateless);
        rebuilt += page.text;
        // A page of whole lines says where the next starts; a line longer than a page says where it goes on.
        const longLine = page.truncated && page.nextLine === undefined && page.nextOffset !== undefined;
        if (!longLine) {
          const expected = reference.slice(page.line - 1, page.lastLine).join('\n');
          expect(page.text.replace(/\n$/, '')).toBe(expected);
          line = page.nextLine;
        } else {
          // A line longer than a page: finish it by offset, then go on with the next line.
          let offset = page.nextOffset;
          while (offset !== undefined) {
            const rest = await read(uri, { offset, count: 4096 }, stateless);
            const end = rest.text.indexOf('\n');
            rebuilt += end === -1 ? rest.text : rest.text.slice(0, end + 1);
            offset = end === -1 ? rest.nextOffset : undefined;
          }
          line = page.line + 1 <= (page.lines ?? 0) ? page.line + 1 : undefined;
        }
      }
      expect(rebuilt, `case ${c}`).toBe(source);
    }
  });

  it('searches find exactly the lines a reference finds, in order, with the full count', async () => {
    const r = random(SEED + 2);
    for (let c = 0; c < CASES / 2; c++) {
      const stateless = c % 2 === 1;
      const source = text(SEED + 200 + c, 4097 + r.int(40_000));
      const uri = await store(source, stateless);
      const at = r.int(source.length - 8);
      const needle =
        c % 5 === 4 ? 'not-in-there' : source.slice(at, at + 1 + r.int(5)).replace(/[\r\n]/g, 'a');
      const ignoreCase = r.next() < 0.5;
      const fold = (s: string) => (ignoreCase ? s.toLowerCase() : s);
      const expected = source
        .split('\n')
        .map((l, i) => [i + 1, l] as const)
        .filter(([, l]) => fold(l).includes(fold(needle)))
        .map(([n]) => n);
      const found: number[] = [];
      let line: number | undefined = 1;
      let first: any;
      while (line !== undefined) {
        const page = await read(uri, { search: needle, ignoreCase, line, count: 1 + r.int(20) }, stateless);
        first ??= page;
        found.push(...page.search.matches);
        line = page.nextLine;
      }
      expect(found, `case ${c}: ${JSON.stringify(needle)}`).toEqual(expected);
      expect(first.search).toMatchObject({ matchCount: expected.length, complete: true });
    }
  });

  it('JSON Pointer selections equal the parsed source, and arrays paged by item rebuild the array', async () => {
    const r = random(SEED + 3);
    for (let c = 0; c < CASES / 4; c++) {
      const stateless = c % 2 === 0;
      const doc = {
        rows: Array.from({ length: 200 + r.int(300) }, (_, i) => ({
          id: i,
          name: text(SEED + i, 20),
          tags: ['a/b', 'c~d'],
        })),
        'a/b': { 'c~d': [1, 2, 3], nested: { ok: true, n: null } },
      };
      const uri = await store(JSON.stringify(doc), stateless);
      for (const [pointer, value] of [
        ['/a~1b', doc['a/b']],
        ['/a~1b/c~0d/2', 3],
        ['/a~1b/nested/n', null],
        [`/rows/${c}/name`, doc.rows[c]!.name],
        [`/rows/${c}/tags/0`, 'a/b'],
      ] as const) {
        const page = await read(uri, { pointer }, stateless);
        expect(JSON.parse(page.text), pointer).toEqual(value);
        expect(page.json.size).toBe(Buffer.byteLength(JSON.stringify(value)));
      }
      const items: unknown[] = [];
      let item: number | undefined = 0;
      while (item !== undefined) {
        const page = await read(uri, { pointer: '/rows', item, count: 1 + r.int(30) }, stateless);
        items.push(...JSON.parse(page.text));
        item = page.json.nextItem;
      }
      expect(items).toEqual(doc.rows);
    }
  });

  it('CSV rows equal the records the source was written from, quoted commas and line breaks included', async () => {
    const r = random(SEED + 4);
    const quote = (f: string) => (/[",\r\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
    for (let c = 0; c < CASES / 4; c++) {
      const stateless = c % 2 === 1;
      const eol = c % 2 ? '\r\n' : '\n';
      const records = Array.from({ length: 100 + r.int(400) }, (_, i) => [
        String(i + 1),
        text(SEED + 300 + i, 1 + r.int(30)),
        'plain',
      ]);
      const rows = records.map((fields) => fields.map(quote).join(',') + eol);
      const header = `id,note,x${eol}`;
      const uri = await store(header + rows.join(''), stateless);
      let row: number | undefined = 1;
      const seen: string[] = [];
      while (row !== undefined) {
        const page = await read(uri, { row, count: 1 + r.int(60) }, stateless);
        expect(page.text.startsWith(header)).toBe(true);
        seen.push(page.text.slice(header.length));
        row = page.csv.nextRow;
        if (row === undefined) expect(page.csv.totalRows).toBe(records.length);
      }
      expect(seen.join(''), `case ${c}`).toBe(rows.join(''));
    }
  });
});
