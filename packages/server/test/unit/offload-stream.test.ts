import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defineTool, streamedBytes, streamedText, TASKS_EXTENSION, ToolError } from '../../src/index.ts';
import { createMcpServer, createOffloader, silentLogger, storedOutputs } from '../../src/faces/lambda.ts';
import { memoryStorage, memoryTaskStore, type StorageWriter } from '../../src/faces/backend.ts';
import { PartCutter } from '../../src/outputs/part-cutter.ts';
import { binaryPartBytes, splitText } from '../../src/outputs/parts.ts';
import { OutputUnavailableError } from '../../src/protocol/errors.ts';
import { StorageError } from '../../src/storage/storage.ts';
import { statelessHeaders, statelessMeta, send, seededText } from '@mcp-lambda/dev/testing';

// Streamed outputs: cut into parts as they arrive, stored while the tool produces them, inline when they end small.

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cuts `bytes` fed in chunks of `size` bytes; the parts' lengths. */
function cutInChunks(cutter: PartCutter, bytes: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(...cutter.push(bytes.subarray(at, at + size)));
  return [...parts, ...cutter.end(parts.length === 0)];
}

describe('cutting a stream into parts', () => {
  it.each([1, 3, 7, 64, 1000])(
    'cuts text fed %i bytes at a time exactly where splitText cuts the whole string',
    (chunk) => {
      for (const seed of [1, 2, 3]) {
        const text = seededText(3_000, seed);
        const parts = cutInChunks(new PartCutter('utf-8', 200), Buffer.from(text), chunk);
        expect(parts.map((p) => p.toString('utf8'))).toEqual(splitText(text, 200));
      }
    },
  );

  it('never splits a character, so every part decodes on its own', () => {
    const text = '😀€é'.repeat(500);
    const parts = cutInChunks(new PartCutter('utf-8', 64), Buffer.from(text), 5);
    expect(parts.map((p) => p.toString('utf8')).join('')).toBe(text);
    for (const part of parts) expect(part.toString('utf8')).not.toContain('\ufffd');
  });

  it('cuts binary data into parts whose base64 fits the budget', () => {
    const bytes = Buffer.alloc(1000, 7);
    const parts = cutInChunks(new PartCutter('binary', 200), bytes, 33);
    expect(parts.map((p) => p.length)).toEqual([150, 150, 150, 150, 150, 150, 100]);
    expect(binaryPartBytes(200)).toBe(150);
  });
});

const ctx = { tool: 'report', requestId: 'req-1', log: silentLogger };
const signal = () => new AbortController().signal;

function offloader(storage: StorageWriter, limits: { partBudgetBytes?: number; maxParts?: number } = {}) {
  return createOffloader({
    storage,
    prefix: 'outputs/',
    thresholdBytes: 100,
    ttlDays: 7,
    concurrency: 2,
    limits: { partBudgetBytes: 200, ...limits },
  });
}

async function* lines(count: number, onClose?: () => void) {
  try {
    for (let i = 0; i < count; i++) yield `row ${i},"quoted",é\n`;
  } finally {
    onClose?.();
  }
}

describe('a streamed output through the offloader', () => {
  it('comes back inline when it ends under the threshold: text as text, an image as an image', async () => {
    const storage = memoryStorage();
    const sink = offloader(storage).streams(ctx);
    const text = await sink(streamedText(lines(2)), signal());
    expect(text.blocks).toEqual([{ type: 'text', text: 'row 0,"quoted",é\nrow 1,"quoted",é\n' }]);
    const png = await sink(streamedBytes([Buffer.from('PNG')], { mimeType: 'image/png' }), signal());
    expect(png.blocks).toEqual([{ type: 'image', data: 'UE5H', mimeType: 'image/png' }]);
    expect(storage.objects.size).toBe(0);
  });

  it('is stored in parts whose bytes join to the output, part 1 describing the whole', async () => {
    const storage = memoryStorage();
    const sink = offloader(storage).streams(ctx);
    const out = await sink(streamedText(lines(100), { mimeType: 'text/csv' }), signal());
    let whole = '';
    for await (const chunk of lines(100)) whole += chunk;
    const links = out.blocks.filter((b) => b.type === 'resource_link');
    expect(links.length).toBeGreaterThan(5);
    const keys = links.map((l) => (l as { uri: string }).uri.replace('mcp-output://', ''));
    const bodies = keys.map((k) => Buffer.from(storage.objects.get(k)!.body));
    expect(Buffer.concat(bodies).toString('utf8')).toBe(whole);
    expect(storage.objects.get(keys[0]!)!.metadata).toMatchObject({
      'part-sizes': bodies.map((b) => b.length).join(','),
      'whole-size': String(Buffer.byteLength(whole)),
      'whole-sha256': sha(whole),
      lines: '100',
    });
    expect(storage.objects.get(keys[0]!)!.contentType).toBe('text/csv');
    expect(out.blocks[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining(`text/csv, ${Buffer.byteLength(whole).toLocaleString('en-US')} bytes`),
    });
    expect((out.blocks[0] as { text: string }).text).toContain(`100 lines`);
    expect((out.blocks[0] as { text: string }).text).toContain(`SHA-256 of the whole output: ${sha(whole)}`);
  });

  it('keeps at most `concurrency` writes in flight: the producer waits for storage', async () => {
    const inner = memoryStorage();
    let inFlight = 0;
    let most = 0;
    const slow: StorageWriter = {
      put: async (...args) => {
        most = Math.max(most, ++inFlight);
        await sleep(5);
        await inner.put(...args);
        inFlight--;
      },
    };
    let produced = 0;
    async function* counted() {
      for (let i = 0; i < 200; i++) {
        produced++;
        yield 'x'.repeat(100);
      }
    }
    await offloader(slow).streams(ctx)(streamedText(counted()), signal());
    expect(most).toBe(2);
    expect(produced).toBe(200);
    expect(inner.objects.size).toBe(100);
  });

  it('removes what it wrote and answers with the storage failure when a write fails mid-stream', async () => {
    const inner = memoryStorage();
    let puts = 0;
    let closed = false;
    const flaky: StorageWriter = {
      put: async (key, ...rest) => {
        if (++puts === 3) throw new StorageError('put', key, { cause: new Error('SlowDown') });
        await inner.put(key, ...rest);
      },
      delete: (key) => inner.delete!(key),
    };
    const failure = offloader(flaky).streams(ctx)(
      streamedText(
        lines(1000, () => {
          closed = true;
        }),
      ),
      signal(),
    );
    await expect(failure).rejects.toThrow(ToolError);
    await expect(failure).rejects.toThrow(/could not be stored \(storage is unavailable right now\)/);
    expect(inner.objects.size).toBe(0);
    expect(closed).toBe(true);
  });

  it('refuses an output that outgrows the most parts an output may have, and removes what it wrote', async () => {
    const storage = memoryStorage();
    const sink = offloader(storage, { maxParts: 3 }).streams(ctx);
    await expect(sink(streamedText(lines(1000)), signal())).rejects.toThrow(/grew past 3 parts/);
    expect(storage.objects.size).toBe(0);
  });
});

describe('tools that stream', () => {
  const storage = memoryStorage();
  const tools = [
    defineTool({
      name: 'report',
      description: 'streams rows',
      inputSchema: { type: 'object', properties: { rows: { type: 'integer' } } } as const,
      handler: ({ rows = 10 }) => [{ type: 'text', text: 'Your report:' }, streamedText(lines(rows))],
    }),
    defineTool({
      name: 'breaks',
      description: 'fails half-way',
      handler: () =>
        streamedText(
          (async function* () {
            yield* lines(2_000);
            throw new ToolError('the source went away after 2,000 rows; retry later');
          })(),
        ),
    }),
    defineTool({
      name: 'endless',
      description: 'streams until its budget runs out',
      timeoutMs: 100,
      handler: (_args, ctx) =>
        streamedText(
          (async function* () {
            for (;;) {
              yield 'more rows\n'.repeat(100);
              await sleep(1);
              await ctx.checkpoint();
            }
          })(),
        ),
    }),
    defineTool({
      name: 'slow_report',
      description: 'streams in a task',
      task: { mode: 'required' },
      handler: () => streamedText(lines(1_000), { mimeType: 'text/csv' }),
    }),
  ];
  // Parts of a few KB: a handful of links, which fit what stays inline beside the other blocks.
  const offloaded = createMcpServer({
    info: { name: 'unit', version: '1.0.0' },
    tools,
    offloader: createOffloader({
      storage,
      prefix: 'outputs/',
      thresholdBytes: 2_000,
      ttlDays: 7,
      limits: { partBudgetBytes: 4_000 },
    }),
    tasks: { store: memoryTaskStore() },
  });
  const bare = createMcpServer({ info: { name: 'unit', version: '1.0.0' }, tools });
  const call = (server: typeof bare, name: string, args: object = {}) =>
    send(server, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });

  it('return a stream among blocks: small ones inline, large ones as a notice and links', async () => {
    const small = (await call(offloaded, 'report', { rows: 2 })).json.result;
    expect(small.content).toEqual([
      { type: 'text', text: 'Your report:' },
      { type: 'text', text: 'row 0,"quoted",é\nrow 1,"quoted",é\n' },
    ]);
    const large = (await call(offloaded, 'report', { rows: 400 })).json.result;
    expect(large.isError).toBeUndefined();
    expect(large.content[0]).toEqual({ type: 'text', text: 'Your report:' });
    expect(large.content[1].text).toMatch(/is too large to include here/);
    expect(large.content.slice(2).every((b: { type: string }) => b.type === 'resource_link')).toBe(true);
  });

  it('a stream that fails half-way answers isError with the tool message, and nothing stays stored', async () => {
    const before = storage.objects.size;
    const result = (await call(offloaded, 'breaks')).json.result;
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0].text).toBe('the source went away after 2,000 rows; retry later');
    expect(storage.objects.size).toBe(before);
  });

  it('a stream that outlives its budget stops there, answers isError, and what it wrote is removed', async () => {
    const before = storage.objects.size;
    const result = (await call(offloaded, 'endless')).json.result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('time budget of 100 ms');
    await sleep(50);
    expect(storage.objects.size).toBe(before);
  });

  it('without storage a small stream comes back inline and a large one is refused with isError', async () => {
    expect((await call(bare, 'report', { rows: 1 })).json.result.content[1].text).toBe('row 0,"quoted",é\n');
    const refused = (await call(bare, 'report', { rows: 400_000 })).json.result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/storage for large outputs is not configured/);
  });

  it('a task tool streams in the worker: its result links the stored parts', async () => {
    const meta = {
      ...statelessMeta(),
      'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
    };
    const task = (
      await send(offloaded, {
        headers: statelessHeaders('tools/call', 'slow_report'),
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'slow_report', arguments: {}, _meta: meta },
        },
      })
    ).json.result;
    expect(task).toMatchObject({ resultType: 'task' });
    let done: any;
    for (let i = 0; i < 50 && done?.status !== 'completed'; i++) {
      await sleep(20);
      done = (
        await send(offloaded, {
          headers: statelessHeaders('tasks/get', task.taskId),
          body: { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: task.taskId, _meta: meta } },
        })
      ).json.result;
    }
    expect(done.status).toBe('completed');
    const links = done.result.content.filter((b: { type: string }) => b.type === 'resource_link');
    expect(links.length).toBeGreaterThan(1);
    expect(links[0].mimeType).toBe('text/csv');
  });
});

describe('reading a stored output back, streamed', () => {
  const at = Date.UTC(2026, 10, 23);
  const read = (storage: ReturnType<typeof memoryStorage>, uri: string, now = at) =>
    storedOutputs({ storage, prefix: 'outputs/', now: () => now }).read(uri, {
      era: 'handshake',
      requestId: 'req-1',
      log: silentLogger,
    });

  async function storeOne(
    storage: ReturnType<typeof memoryStorage>,
    data: string | Uint8Array,
    mimeType: string,
  ) {
    const offload = createOffloader({
      storage,
      prefix: 'outputs/',
      thresholdBytes: 10,
      ttlDays: 1,
      now: () => at,
    });
    return offload.store({ data, mimeType }, ctx);
  }

  it('decodes text and binary chunk by chunk into exactly the stored bytes', async () => {
    const storage = memoryStorage();
    const text = 'é😀"\n'.repeat(40_000);
    const bytes = Buffer.from(Array.from({ length: 200_001 }, (_v, i) => (i * 7) % 256));
    const t = await read(storage, (await storeOne(storage, text, 'text/plain')).uri);
    const b = await read(storage, (await storeOne(storage, bytes, 'application/octet-stream')).uri);
    expect((t!.contents[0] as { text: string }).text).toBe(text);
    expect(Buffer.from((b!.contents[0] as { blob: string }).blob, 'base64').equals(bytes)).toBe(true);
  });

  it('answers unavailable, never the bytes, when they do not match the size or hash the metadata records', async () => {
    const storage = memoryStorage();
    const link = await storeOne(storage, 'x'.repeat(1000), 'text/plain');
    const key = link.uri.replace('mcp-output://', '');
    const object = storage.objects.get(key)!;
    (storage.objects as Map<string, typeof object>).set(key, {
      ...object,
      body: Buffer.from('y'.repeat(1000)),
    });
    await expect(read(storage, link.uri)).rejects.toThrow(OutputUnavailableError);
  });

  it('checks the metadata before any byte: an expired output is not found and its stream is closed unread', async () => {
    const storage = memoryStorage();
    const link = await storeOne(storage, 'x'.repeat(1000), 'text/plain');
    let pulled = 0;
    let closed = false;
    const watched = {
      ...storage,
      getStream: async (key: string) => {
        const object = (await storage.getStream(key))!;
        const inner = object.body[Symbol.asyncIterator]();
        const body: AsyncIterable<Uint8Array> = {
          [Symbol.asyncIterator]: () => ({
            next: () => {
              pulled++;
              return inner.next();
            },
            return: async () => {
              closed = true;
              return { done: true, value: undefined };
            },
          }),
        };
        return { ...object, body };
      },
    };
    expect(await read(watched as typeof storage, link.uri, at + 2 * 86_400_000)).toBeUndefined();
    expect({ pulled, closed }).toEqual({ pulled: 0, closed: true });
  });
});
