import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import { READ_OUTPUT_OUTPUT_SCHEMA, READ_OUTPUT_TOOL } from '../../src/outputs/read-tool.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { createMcpServer } from '../../src/server.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { defineTool } from '../../src/tools/define.ts';
import { send } from '@mcp-lambda/dev/testing';

// A read_output page's structuredContent is a whole page on its own (issue 31): clients that show the model only
// the structured result (the OpenAI Agents SDK with useStructuredContent, mcporter) still get the page text and
// every word the text blocks say, including how to read the next page.

const emit = defineTool({
  name: 'emit',
  description: 'Returns the text it is given',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
  handler: ({ text }) => text,
});

function server() {
  const storage = memoryStorage();
  return createMcpServer({
    info: { name: 't', version: '1' },
    tools: [emit],
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 4096, ttlDays: 1 }),
    outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
  });
}

let id = 0;
const call = async (target: ReturnType<typeof server>, name: string, args: Record<string, unknown>) =>
  (
    await send(target, {
      body: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } },
    })
  ).json.result;

async function stored(target: ReturnType<typeof server>, text: string): Promise<string> {
  const result = await call(target, 'emit', { text });
  return result.content.find((b: { type: string }) => b.type === 'resource_link').uri;
}

const validPage = new Ajv({ strict: false }).compile(READ_OUTPUT_OUTPUT_SCHEMA);

const csv = `id,name\n${Array.from({ length: 400 }, (_, i) => `${i + 1},"name ${i + 1}"`).join('\n')}\n`;
const json = JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ i, name: `item ${i}` })) });

describe('read_output: the structured result of a page', () => {
  it.each<[string, string, Record<string, unknown>, RegExp]>([
    ['a first byte page, which names the other ways in', csv, {}, /Other ways in: search finds the lines/],
    [
      'a byte page whose count was capped (a note)',
      csv,
      { offset: 10, count: 1_000_000 },
      /Note: count is capped/,
    ],
    ['a line page', csv, { line: 7, count: 3 }, /^Lines 7–9 of .* line 10\.$/],
    ['a search page', csv, { search: 'name 2', count: 3 }, /More matches: .* line \d+\.$/],
    ['a search without a match (an empty page)', csv, { search: 'absent' }, /^0 lines contain/],
    ['a JSON page', json, { pointer: '/items', item: 5, count: 2 }, /the same pointer and item 7\.$/],
    ['a CSV page', csv, { row: 399, count: 5 }, /This is the last row\.$/],
  ])('%s carries the summary and the text the content blocks carry', async (_what, text, args, says) => {
    const target = server();
    const uri = await stored(target, text);
    const page = await call(target, READ_OUTPUT_TOOL, { uri, ...args });
    expect(page.isError).toBeUndefined();
    const [summary, body] = page.content;
    expect(summary.text).toMatch(says);
    expect(page.structuredContent).toMatchObject({ uri, summary: summary.text, text: body?.text ?? '' });
    expect(validPage(page.structuredContent), JSON.stringify(validPage.errors)).toBe(true);
    // Nothing the model reads in the text blocks is missing from the structured result.
    const structured = JSON.stringify(page.structuredContent);
    for (const block of page.content) expect(structured).toContain(JSON.stringify(block.text).slice(1, -1));
  });

  it('says in the structured result how to go on, and following it alone rebuilds the output exactly', async () => {
    const target = server();
    const text = `${'😀 "quoted" \\ é\n'.repeat(900)}end`;
    const uri = await stored(target, text);
    let args: Record<string, unknown> | undefined = { count: 1500 };
    const pages: string[] = [];
    while (args) {
      const { structuredContent: page } = await call(target, READ_OUTPUT_TOOL, { uri, ...args });
      pages.push(page.text);
      const next = /Next page: call read_output with the same uri and offset (\d+)\./.exec(page.summary);
      expect(next?.[1], page.summary).toBe(
        page.nextOffset === undefined ? undefined : String(page.nextOffset),
      );
      args = next ? { offset: Number(next[1]), count: 1500 } : undefined;
    }
    expect(pages.length).toBeGreaterThan(5);
    expect(Buffer.from(pages.join('')).equals(Buffer.from(text))).toBe(true);
  });

  it('keeps its position facts beside the page (search matches as line numbers, CSV without the header)', async () => {
    const target = server();
    const uri = await stored(target, csv);
    const search = (await call(target, READ_OUTPUT_TOOL, { uri, search: 'name 7', count: 2 }))
      .structuredContent;
    expect(search.search).toMatchObject({ matches: [8, 71], complete: true });
    const rows = (await call(target, READ_OUTPUT_TOOL, { uri, row: 3, count: 2 })).structuredContent;
    expect(rows.csv).toEqual({ row: 3, rows: 2, nextRow: 5, totalRows: 400 });
    expect(rows.text).toBe('id,name\n3,"name 3"\n4,"name 4"\n');
  });
});
