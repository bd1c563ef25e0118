import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { fromStored, ownerTag, sha256Hex } from '../../src/outputs/object-info.ts';
import { createOffloader as lazyOffloader } from '../../src/outputs/lazy-offloader.ts';
import { createOffloader, type OffloaderOptions, type ResultOffloader } from '../../src/outputs/offloader.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { StorageError, type StorageWriter } from '../../src/storage/storage.ts';
import { ToolError } from '../../src/contracts/tool-error.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const ctx = { tool: 'report', requestId: 'req-1', log: silentLogger };
const failing: StorageWriter = {
  put: async (key) => {
    throw new StorageError('put', key, { cause: new Error('connect ECONNREFUSED') });
  },
};

/** The offloader itself, and the one functions use, whose code loads on first need: the same behaviour. */
const FACTORIES: [string, (options: OffloaderOptions) => ResultOffloader][] = [
  ['offloader over a storage', createOffloader],
  ['offloader loaded on first need, over a storage', lazyOffloader],
];

describe.each(FACTORIES)('%s', (_name, factory) => {
  function offloader(storage: StorageWriter, extra: { budget?: number } = {}) {
    return factory({
      storage,
      prefix: 'outputs/',
      thresholdBytes: 100,
      ttlDays: 7,
      now: () => NOW,
      ...(extra.budget ? { limits: { partBudgetBytes: extra.budget } } : {}),
    });
  }

  it('writes each stored object with content type, byte size, SHA-256 and expiry, under the prefix', async () => {
    const storage = memoryStorage();
    const text = 'x'.repeat(500);
    const out = await offloader(storage).apply({ content: [{ type: 'text', text }] }, ctx);
    expect(out.isError).toBeUndefined();
    const [key, object] = [...storage.objects.entries()][0]!;
    expect(key).toMatch(/^outputs\/[0-9a-f]{32}$/);
    expect(object.contentType).toBe('text/plain');
    expect(object.metadata).toEqual({
      encoding: 'utf-8',
      size: '500',
      sha256: sha256Hex(Buffer.from(text)),
      'expires-at': '2026-11-29T12:00:00.000Z',
      lines: '1',
    });
    expect(fromStored(object)).toMatchObject({ size: 500, expiresAt: NOW + 7 * 86_400_000 });
    expect(out.content[1]).toMatchObject({ uri: `mcp-output://${key}`, size: 500 });
  });

  it('the first object of a text output in parts describes the whole: part sizes and newlines, size, hash, lines', async () => {
    const storage = memoryStorage();
    const text = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
    const out = await offloader(storage, { budget: 100 }).apply({ content: [{ type: 'text', text }] }, ctx);
    const links = out.content.filter((b) => b.type === 'resource_link');
    const parts = links.map((l) => storage.objects.get(l.uri.slice('mcp-output://'.length))!);
    expect(parts.length).toBeGreaterThan(2);
    const newlines = parts.map((p) => Buffer.from(p.body).toString('utf8').split('\n').length - 1);
    expect(parts[0]!.metadata).toMatchObject({
      'part-sizes': parts.map((p) => p.body.byteLength).join(','),
      'part-newlines': newlines.join(','),
      'whole-size': String(Buffer.byteLength(text)),
      'whole-sha256': sha256Hex(Buffer.from(text)),
      lines: '40',
    });
    for (const later of parts.slice(1)) expect(later.metadata).not.toHaveProperty('part-sizes');
  });

  it('stores a large output as ordered parts whose bytes join to the original', async () => {
    const storage = memoryStorage();
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
    const out = await offloader(storage, { budget: 200 }).apply(
      { content: [{ type: 'audio', data: Buffer.from(bytes).toString('base64'), mimeType: 'audio/wav' }] },
      ctx,
    );
    const links = out.content.filter((b) => b.type === 'resource_link');
    expect(links).toHaveLength(Math.ceil(1000 / 150));
    const joined = Buffer.concat(
      links.map((l) => Buffer.from(storage.objects.get(l.uri.slice('mcp-output://'.length))!.body)),
    );
    expect(joined).toEqual(Buffer.from(bytes));
    expect(links.map((l) => l.uri)).toEqual(
      links.map((_, i) => `${links[0]!.uri.replace(/\/part-1$/, '')}/part-${i + 1}`),
    );
    expect(links[0]!._meta).toMatchObject({
      'mcp-lambda-template/output': {
        part: { index: 1, count: 7, offset: 0 },
        whole: { size: 1000, sha256: sha256Hex(bytes) },
      },
    });
  });

  it('binds stored objects to the caller when the request is authenticated', async () => {
    const storage = memoryStorage();
    await offloader(storage).apply(
      { content: [{ type: 'text', text: 'y'.repeat(200) }] },
      { ...ctx, principal: 'alice' },
    );
    expect([...storage.objects.values()][0]!.metadata.owner).toBe(ownerTag('alice'));
    expect([...storage.objects.keys()][0]).toMatch(new RegExp(`^outputs/${ownerTag('alice')}/[0-9a-f]{32}$`));
    expect(ownerTag('alice')).not.toContain('alice');
  });

  it('answers isError saying the output could not be stored when storage fails, never a truncated success', async () => {
    const out = await offloader(failing).apply(
      {
        content: [
          { type: 'text', text: 'small' },
          { type: 'text', text: 'z'.repeat(500) },
        ],
      },
      ctx,
    );
    expect(out.isError).toBe(true);
    expect(out.content).toHaveLength(1);
    expect(out.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('could not be stored'),
    });
    expect((out.content[0] as { text: string }).text).not.toMatch(/ECONNREFUSED|StorageError|at /);
  });

  it('answers isError when the deadline is already too close to start storing, never links to objects it never wrote', async () => {
    // Within the answer's margin of the deadline (a busy machine got there late): no write may start.
    const storage = memoryStorage();
    const lines: Record<string, unknown>[] = [];
    const log = { ...silentLogger, error: (_m: string, a: Record<string, unknown>) => lines.push(a) };
    const late = { ...ctx, log, deadline: Date.now() + 500 };
    const out = await offloader(storage).apply({ content: [{ type: 'text', text: 'z'.repeat(500) }] }, late);
    expect(out).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: expect.stringMatching(/could not be stored \(storage did not answer in time/) },
      ],
    });
    const error = await offloader(storage)
      .store({ data: 'x', mimeType: 'text/plain' }, late)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toMatch(/could not be stored \(storage did not answer in time/);
    expect(storage.objects.size).toBe(0);
    expect(lines).toEqual([
      expect.objectContaining({ started: 0, timedOut: true }),
      expect.objectContaining({ started: 0, timedOut: true }),
    ]);
  });

  describe('a store that fails part-way', () => {
    /** Storage whose second write hangs until aborted and whose third fails. */
    function flaky(withDelete = true) {
      const inner = memoryStorage();
      const seen = { puts: 0, aborted: 0 };
      const storage: StorageWriter = {
        put: async (key, body, attributes, call) => {
          const n = (seen.puts += 1);
          if (n === 3) throw new StorageError('put', key, { cause: new Error('SlowDown') });
          if (n === 2)
            return new Promise((_resolve, reject) =>
              call!.signal!.addEventListener('abort', () => {
                seen.aborted += 1;
                reject(new StorageError('put', key, { cause: call!.signal!.reason }));
              }),
            );
          await inner.put(key, body, attributes, call);
        },
        ...(withDelete ? { delete: (key: string) => inner.delete!(key) } : {}),
      };
      return { inner, seen, storage };
    }
    const sevenParts = {
      content: [
        { type: 'audio' as const, data: Buffer.alloc(1000, 7).toString('base64'), mimeType: 'audio/wav' },
      ],
    };

    it('starts no further write, aborts those in flight, deletes what was written and logs it', async () => {
      const { inner, seen, storage } = flaky();
      const lines: Record<string, unknown>[] = [];
      const log = { ...silentLogger, error: (_m: string, a: Record<string, unknown>) => lines.push(a) };
      const out = await offloader(storage, { budget: 200 }).apply(sevenParts, { ...ctx, log });
      expect(out.isError).toBe(true);
      expect(seen).toEqual({ puts: 3, aborted: 1 });
      expect(inner.objects.size).toBe(0);
      expect(lines).toEqual([
        expect.objectContaining({ tool: 'report', objects: 7, started: 3, removed: 3, timedOut: false }),
      ]);
    });

    it('without a delete, says in the log that the written parts were left to expire', async () => {
      const { inner, storage } = flaky(false);
      const lines: Record<string, unknown>[] = [];
      const log = { ...silentLogger, error: (_m: string, a: Record<string, unknown>) => lines.push(a) };
      await offloader(storage, { budget: 200 }).apply(sevenParts, { ...ctx, log });
      expect(inner.objects.size).toBe(1);
      expect(lines[0]).toMatchObject({ started: 3, removed: 0 });
    });
  });

  it('returns a result unchanged when nothing needs storing, without touching storage', async () => {
    const result = { content: [{ type: 'text' as const, text: 'short' }] };
    expect(await offloader(failing).apply(result, ctx)).toBe(result);
  });

  it('stores blocks under the threshold when the call keeps less inline than usual (a task record)', async () => {
    const storage = memoryStorage();
    const result = { content: [60, 50].map((n) => ({ type: 'text' as const, text: 'y'.repeat(n) })) };
    expect(await offloader(storage).apply(result, ctx)).toBe(result);
    const out = await offloader(storage).apply(result, { ...ctx, maxInlineBytes: 100 });
    expect(storage.objects.size).toBe(1);
    expect(out.content.some((b) => b.type === 'resource_link')).toBe(true);
  });

  it('never stores an error result, whatever its size: it goes back to the model as it is', async () => {
    const storage = memoryStorage();
    const result = { content: [{ type: 'text' as const, text: 'e'.repeat(5000) }], isError: true };
    expect(await offloader(storage).apply(result, ctx)).toBe(result);
    expect(storage.objects.size).toBe(0);
  });

  it('answers isError when the policy refuses an output', async () => {
    const out = await offloader(memoryStorage()).apply(
      { content: [], structuredContent: { x: 'x'.repeat(1024 * 1024 + 10) } },
      { ...ctx, structuredContentRequired: true },
    );
    expect(out).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/outputSchema/) }],
    });
  });

  it('ctx.store returns one link with the names the tool chose', async () => {
    const storage = memoryStorage();
    const link = await offloader(storage).store(
      {
        data: '# Title\n',
        mimeType: 'text/markdown',
        name: 'summary.md',
        title: 'Summary',
        description: 'The summary',
      },
      ctx,
    );
    expect(link).toMatchObject({
      type: 'resource_link',
      name: 'summary.md',
      title: 'Summary',
      description: 'The summary',
      mimeType: 'text/markdown',
      size: 8,
    });
    expect(storage.objects.get(link.uri.slice('mcp-output://'.length))!.contentType).toBe('text/markdown');
  });

  it('ctx.store throws a ToolError the model can read when storage fails', async () => {
    const error = await offloader(failing)
      .store({ data: 'x', mimeType: 'text/plain' }, ctx)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toMatch(/could not be stored/);
  });
});
