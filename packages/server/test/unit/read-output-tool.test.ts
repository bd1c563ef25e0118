import { describe, expect, it } from 'vitest';
import { generateValidatorModules } from '../../src/build/validators.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import {
  READ_OUTPUT_INPUT_SCHEMA,
  READ_OUTPUT_OUTPUT_SCHEMA,
  READ_OUTPUT_TOOL,
} from '../../src/outputs/read-tool.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { createMcpServer, type McpServerOptions } from '../../src/server.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { defineTool } from '../../src/tools/define.ts';
import { schemaHash } from '../../src/tools/validation.ts';
import { send } from '@mcp-lambda/dev/testing';

// When the server offers read_output, how the offload notice points at it, and why a page is never stored itself.

const big = defineTool({
  name: 'big',
  description: 'Returns the text it is given, repeated',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' }, times: { type: 'integer' } },
    required: ['text', 'times'],
  } as const,
  handler: ({ text, times }) => text.repeat(times),
});

function server(extra: Partial<McpServerOptions> = {}, thresholdBytes = 32 * 1024) {
  const storage = memoryStorage();
  return createMcpServer({
    info: { name: 't', version: '1' },
    tools: [big],
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes, ttlDays: 1 }),
    outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
    ...extra,
  });
}

let id = 0;
const rpc = async (target: ReturnType<typeof server>, method: string, params: Record<string, unknown> = {}) =>
  (await send(target, { body: { jsonrpc: '2.0', id: ++id, method, params } })).json.result;
const names = async (target: ReturnType<typeof server>) =>
  (await rpc(target, 'tools/list')).tools.map((t: { name: string }) => t.name);

describe('the built-in read_output tool', () => {
  it('is listed when outputs are offloaded and their pages can be read, and only then', async () => {
    expect(await names(server())).toEqual(['big', READ_OUTPUT_TOOL]);
    expect(await names(server({ readOutputTool: false }))).toEqual(['big']);
    expect(await names(server({ outputPages: undefined }))).toEqual(['big']);
    expect(await names(server({ offloader: undefined }))).toEqual(['big']);
  });

  it('refuses a tool of its name, saying how to resolve it', () => {
    const mine = defineTool({ name: READ_OUTPUT_TOOL, description: 'mine', handler: () => 'x' });
    expect(() => server({ tools: [mine] })).toThrow(
      /built in when outputs are offloaded: rename yours, or turn the built-in one off/,
    );
    expect(() => server({ tools: [mine], readOutputTool: false })).not.toThrow();
  });

  it('is named by the offload notice, in one sentence, only when it is there', async () => {
    const args = { name: 'big', arguments: { text: 'line\n', times: 10_000 } };
    const named = (await rpc(server(), 'tools/call', args)).content[0].text;
    expect(named).toMatch(
      /Call read_output with that uri to read it a page at a time or search it \(or use resources\/read where your host offers it\)\./,
    );
    const plain = (await rpc(server({ readOutputTool: false }), 'tools/call', args)).content[0].text;
    expect(plain).not.toMatch(/read_output/);
    expect(plain).toMatch(/Read it with resources\/read using that uri/);
  });

  it.each([1024, 2 * 1024, 32 * 1024, 1024 * 1024])(
    'never returns a page large enough to be stored itself (threshold %i bytes, text that escapes badly)',
    async (threshold) => {
      const target = server({}, threshold);
      for (const text of ['"\\\u0001', 'plain text ', '😀é\n']) {
        const stored = await rpc(target, 'tools/call', {
          name: 'big',
          arguments: { text, times: Math.ceil((4 * threshold) / text.length) },
        });
        const uri = stored.content.find((b: { type: string }) => b.type === 'resource_link').uri;
        for (const args of [
          { count: 1_048_576 },
          { line: 1, count: 10_000 },
          { search: text.slice(0, 1), count: 100, context: 10 },
        ]) {
          const page = await rpc(target, 'tools/call', {
            name: READ_OUTPUT_TOOL,
            arguments: { uri, ...args },
          });
          expect(page.isError, JSON.stringify(args)).toBeUndefined();
          expect(page.content.map((b: { type: string }) => b.type)).toEqual(['text', 'text']);
          const text = page.content.map((b: { text: string }) => b.text).join('');
          expect(Buffer.byteLength(text)).toBeLessThanOrEqual(threshold);
        }
      }
    },
  );

  it('answers a page as its summary and its exact text, and the same two with its position as structuredContent', async () => {
    const target = server({}, 1024);
    const text = Array.from({ length: 200 }, (_, i) => `${i + 1},"row ${i + 1}"`).join('\n');
    const stored = await rpc(target, 'tools/call', { name: 'big', arguments: { text, times: 1 } });
    const uri = stored.content.find((b: { type: string }) => b.type === 'resource_link').uri;
    const pages = [
      await rpc(target, 'tools/call', { name: READ_OUTPUT_TOOL, arguments: { uri, count: 100 } }),
      await rpc(target, 'tools/call', {
        name: READ_OUTPUT_TOOL,
        arguments: { uri, search: 'row 7', count: 2 },
      }),
      await rpc(target, 'tools/call', { name: READ_OUTPUT_TOOL, arguments: { uri, row: 3, count: 2 } }),
    ];
    expect(pages[0].content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(
          /^Bytes 0–99 of .* Next page: call read_output with the same uri and offset 100\./,
        ),
      },
      { type: 'text', text: text.slice(0, 100) },
    ]);
    expect(pages[0].structuredContent).toMatchObject({
      uri,
      mode: 'bytes',
      offset: 0,
      length: 100,
      nextOffset: 100,
    });
    expect(pages[1].structuredContent.search).toMatchObject({ matches: [7, 70], matchCount: 11 });
    expect(pages[2].content[1].text).toBe(`1,"row 1"\n4,"row 4"\n5,"row 5"\n`);
    expect(pages[2].structuredContent.csv).toEqual({ row: 3, rows: 2, nextRow: 5, totalRows: 199 });
    for (const page of pages) {
      expect(page.isError).toBeUndefined();
      expect(page.structuredContent).toMatchObject({
        summary: page.content[0].text,
        text: page.content[1].text,
      });
      // The note is said once, in the summary.
      expect(page.structuredContent).not.toHaveProperty('note');
    }
  });

  it('has precompiled validators for its schemas in every generated module', () => {
    const { table, modules } = generateValidatorModules([]);
    expect(table).toContain(`"read_output#input": { hash: "${schemaHash(READ_OUTPUT_INPUT_SCHEMA)}"`);
    expect(table).toContain(`"read_output#output": { hash: "${schemaHash(READ_OUTPUT_OUTPUT_SCHEMA)}"`);
    // Descriptions are for the model: the generated code does not carry them a second time.
    expect(Object.values(modules).join('')).not.toContain('Literal text to find');
  });
});
