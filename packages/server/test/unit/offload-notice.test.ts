import { describe, expect, it } from 'vitest';
import { TASKS_EXTENSION } from '../../src/index.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import { READ_OUTPUT_TOOL } from '../../src/outputs/read-tool.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { payloadNotice, type StoredPayload } from '../../src/outputs/summary.ts';
import { createMcpServer } from '../../src/server.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { memoryTaskStore } from '../../src/tasks/memory-store.ts';
import { defineTool } from '../../src/tools/define.ts';
import { streamedText } from '../../src/tools/streamed.ts';
import { send, statelessHeaders, statelessMeta } from '@mcp-lambda/dev/testing';

// The notice that replaces a stored output names its mcp-output:// URI in its own text (issue 31): a client that
// drops resource_link blocks still leaves the model a URI to pass to read_output.

const ID = '0123456789abcdef'.repeat(2);
const URIS = /mcp-output:\/\/[^\s),]+/g;

function payload(parts: number, encoding: 'utf-8' | 'binary' = 'utf-8'): StoredPayload {
  return {
    source: encoding === 'utf-8' ? 'text' : 'binary',
    mimeType: encoding === 'utf-8' ? 'text/plain' : 'application/octet-stream',
    encoding,
    size: parts * 1000,
    sha256: 'f'.repeat(64),
    expiresAt: Date.UTC(2030, 0, 1),
    parts: Array.from({ length: parts }, (_, i) => ({
      uri: `mcp-output://outputs/${ID}${parts > 1 ? `/part-${i + 1}` : ''}`,
      size: 1000,
      sha256: 'e'.repeat(64),
      id: ID,
    })),
  };
}

describe('the stored-output notice names the URI', () => {
  it('of an output stored whole, and tells the model to pass that uri to read_output', () => {
    const { text } = payloadNotice('t', payload(1), READ_OUTPUT_TOOL);
    expect(text).toContain(
      `so it was stored as mcp-output://outputs/${ID} and linked below. Call read_output with that uri to read it`,
    );
    expect(text.match(URIS)).toEqual([`mcp-output://outputs/${ID}`]);
  });

  it('of an output in parts: the first and the last, exactly, however many parts (part n ends in /part-n)', () => {
    for (const parts of [2, 100]) {
      const { text } = payloadNotice('t', payload(parts), READ_OUTPUT_TOOL);
      expect(text.match(URIS)).toEqual([
        `mcp-output://outputs/${ID}/part-1`,
        `mcp-output://outputs/${ID}/part-${parts}`,
      ]);
      expect(text).toMatch(/\(part n ends in \/part-n\)\. Call read_output with the first part's uri/);
      // Capped: the notice does not grow with the number of parts.
      expect(text.length).toBeLessThan(800);
    }
  });

  it('without read_output, and of binary outputs, for resources/read', () => {
    const plain = payloadNotice('t', payload(1)).text;
    expect(plain).toContain(
      `stored as mcp-output://outputs/${ID} and linked below. Read it with resources/read using that uri.`,
    );
    const binary = payloadNotice('t', payload(3, 'binary'), READ_OUTPUT_TOOL).text;
    expect(binary).not.toContain('read_output');
    expect(binary).toMatch(/Read each part with resources\/read using its uri and join the parts in order/);
    expect(binary.match(URIS)).toHaveLength(2);
  });
});

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const tools = [
  defineTool({ name: 'whole', description: 'a large text', handler: () => lines(5000) }),
  defineTool({
    name: 'streamed',
    description: 'a large streamed text',
    handler: () => streamedText([lines(5000)]),
  }),
  defineTool({
    name: 'task',
    description: 'a large text, as a task',
    task: { mode: 'required' },
    handler: () => lines(5000),
  }),
];

function server() {
  const storage = memoryStorage();
  return createMcpServer({
    info: { name: 't', version: '1' },
    tools,
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 8 * 1024, ttlDays: 1 }),
    outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
    tasks: { store: memoryTaskStore() },
  });
}

/** A 2026-07-28 request that accepts tasks. */
const call = async (target: ReturnType<typeof server>, method: string, params: Record<string, unknown>) =>
  (
    await send(target, {
      headers: statelessHeaders(method, (params.name ?? params.taskId) as string),
      body: {
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          ...params,
          _meta: {
            ...statelessMeta(),
            'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
          },
        },
      },
    })
  ).json.result;

/** The result of a task, once it has run in the process. */
async function taskResult(target: ReturnType<typeof server>, taskId: string) {
  for (let i = 0; i < 100; i++) {
    const got = await call(target, 'tasks/get', { taskId });
    if (got.status !== 'working') return got.result;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the task did not finish');
}

describe('a client that drops resource_link blocks', () => {
  it.each(['whole', 'streamed', 'task'])(
    'finds the URI in the notice of a %s output and reads the output with read_output',
    async (name) => {
      const target = server();
      let result = await call(target, 'tools/call', { name });
      expect(result.resultType === 'task').toBe(name === 'task');
      if (name === 'task') result = await taskResult(target, result.taskId);
      const link = result.content.find((b: { type: string }) => b.type === 'resource_link');
      const texts = result.content
        .filter((b: { type: string }) => b.type === 'text')
        .map((b: { text: string }) => b.text);
      const named = texts.join('\n').match(URIS);
      expect(named).toEqual([link.uri]);
      const page = await call(target, 'tools/call', {
        name: READ_OUTPUT_TOOL,
        arguments: { uri: named![0], line: 4999 },
      });
      expect(page.isError).toBeUndefined();
      expect(page.content[1].text).toBe('line 4999\nline 5000\n');
    },
  );
});
