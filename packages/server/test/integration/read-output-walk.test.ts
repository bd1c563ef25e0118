import { describe, expect, it } from 'vitest';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { createMcpServer } from '../../src/server.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { defineTool } from '../../src/tools/define.ts';
import { pageOf, send } from '@mcp-lambda/dev/testing';

// A model that only follows the hints: from a first call in each way of reading, every page's "next page" sentence
// is turned into the next call, until a page says it is the last. On adversarial shapes (a CSV row, a line and JSON
// values each larger than a page, text that escapes badly) the walk must reach the end and never repeat a call.

/** Offload threshold: pages of 2 KiB (half of it), so 20,000-character values span many pages. */
const THRESHOLD = 4096;
const HUGE = 20_000;
const MAX_CALLS = 500;

const emit = defineTool({
  name: 'emit',
  description: 'Returns the text it is given',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
  handler: ({ text }) => text,
});

function server() {
  const storage = memoryStorage();
  return createMcpServer({
    info: { name: 'walk', version: '1' },
    tools: [emit],
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: THRESHOLD, ttlDays: 1 }),
    outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
  });
}

let id = 0;
async function call(target: ReturnType<typeof server>, name: string, args: Record<string, unknown>) {
  const res = await send(target, {
    body: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } },
  });
  return res.json.result;
}

/** The next call a page's summary asks for, or undefined at the end. */
function nextArgs(summary: string, previous: Record<string, unknown>): Record<string, unknown> | undefined {
  const more = /More matches: call read_output with the same uri and search, and line (\d+)\./.exec(summary);
  if (more) return { ...previous, line: Number(more[1]) };
  const next = /Next page: call read_output with the same uri and ([^.]+)\./.exec(summary)?.[1];
  if (next === undefined) return undefined;
  const [, name, value] = /^(?:the same pointer and )?(offset|line|row|item) (\d+)$/.exec(next) ?? [];
  if (!name) throw new Error(`a next-page hint the walker cannot follow: ${next}`);
  if (name === 'item') return { pointer: previous.pointer, item: Number(value) };
  return { [name]: Number(value) };
}

interface Walk {
  calls: Record<string, unknown>[];
  pages: { summary: string; page: any }[];
}

/** Follows the hints from `first` to the end; fails on an error, a repeated call, or a walk without end. */
async function walk(target: ReturnType<typeof server>, uri: string, first: Record<string, unknown>) {
  const seen = new Set<string>();
  const result: Walk = { calls: [], pages: [] };
  for (let args: Record<string, unknown> | undefined = first; args;) {
    const key = JSON.stringify(args);
    expect(seen.has(key), `repeated call ${key} after ${JSON.stringify(result.calls.slice(-3))}`).toBe(false);
    expect(seen.size).toBeLessThan(MAX_CALLS);
    seen.add(key);
    result.calls.push(args);
    const page = await call(target, 'read_output', { uri, ...args });
    expect(page.isError, `${key}: ${page.content?.[0]?.text}`).toBeUndefined();
    const whole = pageOf(page);
    result.pages.push({ summary: whole.summary, page: whole });
    args = nextArgs(whole.summary, args);
  }
  return result;
}

/** A walk ends on a whole page (one cut short always says how to go on), and one by offset at the last byte. */
function endsAtTheEnd(w: Walk, size: number) {
  const last = w.pages.at(-1)!.page;
  // A search may end on a match shown in part: its note names the line to read it whole.
  if (!/read it whole with line \d+/.test(w.pages.at(-1)!.summary))
    expect(last.truncated, w.pages.at(-1)!.summary).toBeUndefined();
  if (last.offset !== undefined && last.length !== undefined) expect(last.offset + last.length).toBe(size);
}

const csvRow = (i: number) => `${i},"${i % 2 ? 'plain' : 'quoted ""and"" escaped'}",${i * 7}\n`;
const SHAPES = {
  csv: [
    'id,note,total\n',
    ...Array.from({ length: 30 }, (_, i) => csvRow(i + 1)),
    `31,"${'wide cell, with commas\n and line breaks '.repeat(HUGE / 40)}",0\n`,
    ...Array.from({ length: 30 }, (_, i) => csvRow(i + 32)),
  ].join(''),
  lines: [
    ...Array.from({ length: 40 }, (_, i) => `line ${i + 1} needle`),
    `needle ${'"\u0001'.repeat(HUGE / 2)} needle`,
    ...Array.from({ length: 40 }, (_, i) => `${'"'.repeat(300)} needle ${i}`),
  ].join('\n'),
  json: JSON.stringify({
    items: [1, { a: 'x'.repeat(HUGE) }, 'q"'.repeat(HUGE / 2), ...Array.from({ length: 100 }, (_, i) => i)],
    ['k'.repeat(HUGE)]: 'a member name larger than a page',
    long: '\u0002'.repeat(HUGE),
    number: Number.MAX_VALUE,
  }),
};

const STARTS: [keyof typeof SHAPES, Record<string, unknown>][] = [
  ['csv', {}],
  ['csv', { line: 1 }],
  ['csv', { row: 1 }],
  ['csv', { row: 31 }],
  ['csv', { search: 'wide', context: 10 }],
  ['lines', {}],
  ['lines', { line: 1, count: 10_000 }],
  ['lines', { line: 41 }],
  ['lines', { search: 'needle', context: 10 }],
  ['lines', { search: 'NEEDLE', ignoreCase: true, context: 0, count: 1 }],
  ['json', {}],
  ['json', { pointer: '' }],
  ['json', { pointer: '/items' }],
  ['json', { pointer: '/items', item: 1 }],
  ['json', { pointer: '/items/2' }],
  ['json', { pointer: '/long' }],
  ['json', { line: 1 }],
];

describe('following only the next-page hints', () => {
  const target = server();
  const uris = new Map<keyof typeof SHAPES, string>();
  const stored = async (shape: keyof typeof SHAPES) => {
    if (!uris.has(shape)) {
      const result = await call(target, 'emit', { text: SHAPES[shape] });
      uris.set(shape, result.content.find((b: { type: string }) => b.type === 'resource_link').uri);
    }
    return uris.get(shape)!;
  };

  it.each(STARTS)(
    'reaches the end of the %s output from %j without repeating a call',
    async (shape, first) => {
      const w = await walk(target, await stored(shape), first);
      endsAtTheEnd(w, Buffer.byteLength(SHAPES[shape]));
    },
  );

  it('reads every byte exactly once by offset, whatever the shape', async () => {
    for (const shape of Object.keys(SHAPES) as (keyof typeof SHAPES)[]) {
      const w = await walk(target, await stored(shape), {});
      expect(w.pages.map((p) => p.page.text).join('')).toBe(SHAPES[shape]);
    }
  });

  it('reads the CSV row larger than a page from its start, and can skip to the row after it', async () => {
    const uri = await stored('csv');
    const w = await walk(target, uri, { row: 31 });
    const first = w.pages[0]!;
    expect(first.summary).toMatch(
      /^Row 31 of 61 of the CSV .* Note: row 31 is larger than one page: this is its start/,
    );
    expect(first.summary).toMatch(/read on with offset \d+, or go to the next row with row 32\./);
    expect(first.page.text.startsWith('id,note,total\n31,"wide cell')).toBe(true);
    const after = await call(target, 'read_output', { uri, row: 32 });
    expect(after.content[0].text).toMatch(/^Rows 32–61 of 61 .* This is the last row\.$/);
  });
});
