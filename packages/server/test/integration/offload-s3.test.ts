import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { createMcpServer, type McpServer } from '../../src/server.ts';
import type { StorageReader, StorageWriter } from '../../src/storage/storage.ts';
import { defineTool, type ToolDefinition } from '../../src/tools/define.ts';
import {
  statelessHeaders,
  statelessMeta,
  send,
  deadEndpoint,
  startTestS3,
  type TestS3,
} from '@mcp-lambda/dev/testing';

// The offload feature end to end against a real S3-compatible server: a server built like the MCP function,
// requests sent straight into its transport.

const PREFIX = 'outputs/';
const DAY = 86_400_000;
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

let s3: TestS3;
let stopMidCall = false;

const tools: ToolDefinition[] = [
  defineTool({ name: 'ping', description: 'pong', handler: () => 'pong' }),
  defineTool({
    name: 'big_text',
    description: 'Returns n repetitions of a line',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const,
    handler: async ({ n }) => {
      if (stopMidCall) await s3.stop();
      return Array.from({ length: n }, (_, i) => `line ${i} "quoted" \\ é 😀`).join('\n');
    },
  }),
  defineTool({
    name: 'big_image',
    description: 'Returns n pseudo-random bytes as a PNG-typed image',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const,
    handler: ({ n }) => ({ type: 'image', data: pseudoRandom(n).toString('base64'), mimeType: 'image/png' }),
  }),
  defineTool({
    name: 'rows',
    description: 'Structured rows with an outputSchema',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const,
    outputSchema: {
      type: 'object',
      properties: { rows: { type: 'array', items: { type: 'string' } } },
      required: ['rows'],
    } as const,
    handler: ({ n }) => ({ rows: Array.from({ length: n }, (_, i) => `row ${i}`) }),
  }),
  defineTool({
    name: 'rows_free',
    description: 'Structured rows without an outputSchema',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const,
    handler: ({ n }) => ({ rows: Array.from({ length: n }, (_, i) => `row ${i}`) }),
  }),
  defineTool({
    name: 'store_explicitly',
    description: 'Stores a markdown file and links it',
    handler: async (_args, ctx) => [
      { type: 'text', text: 'Here is the file.' },
      await ctx.store({ data: '# Report\n\nAll good.\n', mimeType: 'text/markdown', name: 'report.md' }),
    ],
  }),
];

function pseudoRandom(n: number, seed = 7): Buffer {
  const out = Buffer.alloc(n);
  let state = seed;
  for (let i = 0; i < n; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

function buildServer(
  storage: StorageWriter & StorageReader,
  options: { now?: () => number } = {},
): McpServer {
  return createMcpServer({
    info: { name: 'offload-test', version: '1.0.0' },
    tools,
    resources: [storedOutputs({ storage, prefix: PREFIX })],
    offloader: createOffloader({
      storage,
      prefix: PREFIX,
      thresholdBytes: 32 * 1024,
      ttlDays: 7,
      ...(options.now ? { now: options.now } : {}),
    }),
  });
}

let server: McpServer;
let id = 0;

async function call(target: McpServer, name: string, args: Record<string, unknown> = {}, stateless = false) {
  const res = await send(target, {
    ...(stateless ? { headers: statelessHeaders('tools/call', name) } : {}),
    body: {
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name, arguments: args, ...(stateless ? { _meta: statelessMeta() } : {}) },
    },
  });
  expect(res.status).toBe(200);
  return res.json;
}

async function read(target: McpServer, uri: string, stateless = false) {
  const res = await send(target, {
    ...(stateless ? { headers: statelessHeaders('resources/read', uri) } : {}),
    body: {
      jsonrpc: '2.0',
      id: ++id,
      method: 'resources/read',
      params: { uri, ...(stateless ? { _meta: statelessMeta() } : {}) },
    },
  });
  return res.json;
}

const links = (result: any) => result.content.filter((b: any) => b.type === 'resource_link');

/** Reads every linked part in order and joins the bytes. */
async function readAll(target: McpServer, result: any, stateless = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (const link of links(result)) {
    const answer = await read(target, link.uri, stateless);
    const c = answer.result.contents[0];
    chunks.push(c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.blob, 'base64'));
  }
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  s3 = await startTestS3();
  server = buildServer(s3.storage());
});

afterAll(async () => {
  await s3?.close();
});

describe('large outputs become resource links that read back exactly', () => {
  it('a 1 MB text output yields one link whose resources/read returns the same bytes', async () => {
    const { result } = await call(server, 'big_text', { n: 40_000 });
    const expected = (await tools[1]!.handler({ n: 40_000 }, {} as never)) as string;
    expect(Buffer.byteLength(expected)).toBeGreaterThan(1_000_000);
    expect(result.isError).toBeUndefined();
    expect(links(result)).toHaveLength(1);
    expect(links(result)[0]).toMatchObject({ mimeType: 'text/plain', size: Buffer.byteLength(expected) });
    expect(sha(await readAll(server, result))).toBe(sha(expected));
    expect(JSON.stringify(result).length).toBeLessThan(4_000);
  });

  it('a binary output is stored as raw bytes and read back as a base64 blob with its mimeType', async () => {
    const { result } = await call(server, 'big_image', { n: 300_000 });
    const [link] = links(result);
    expect(link).toMatchObject({ mimeType: 'image/png', size: 300_000 });
    const answer = await read(server, link.uri);
    expect(answer.result.contents[0]).toMatchObject({ uri: link.uri, mimeType: 'image/png' });
    expect(Buffer.from(answer.result.contents[0].blob, 'base64').equals(pseudoRandom(300_000))).toBe(true);
    const object = await s3.storage().get(link.uri.slice('mcp-output://'.length));
    expect(object?.contentType).toBe('image/png');
    expect(Buffer.from(object!.body).equals(pseudoRandom(300_000))).toBe(true);
  });

  it('every stored object carries content type, byte size, SHA-256 and expiry as S3 metadata', async () => {
    const { result } = await call(server, 'big_text', { n: 5_000 });
    const [link] = links(result);
    const object = await s3.storage().get(link.uri.slice('mcp-output://'.length));
    expect(object).toBeDefined();
    expect(object!.contentType).toBe('text/plain');
    expect(object!.metadata).toMatchObject({
      encoding: 'utf-8',
      size: String(object!.body.byteLength),
      sha256: sha(object!.body),
    });
    const expires = Date.parse(object!.metadata['expires-at']!);
    expect(Math.abs(expires - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect(link.description).toContain(`stored until ${new Date(expires).toISOString()}`);
  });

  it('an output larger than one response is stored as ordered parts that join to the original', async () => {
    const { result } = await call(server, 'big_image', { n: 9_000_000 });
    const parts = links(result);
    expect(parts.map((l: any) => l.uri.replace(/^.*\//, ''))).toEqual(['part-1', 'part-2', 'part-3']);
    expect(parts.map((l: any) => l.size)).toEqual([3_932_160, 3_932_160, 9_000_000 - 2 * 3_932_160]);
    const joined = await readAll(server, result, true);
    expect(joined.equals(pseudoRandom(9_000_000))).toBe(true);
    for (const link of parts) {
      const answer = await read(server, link.uri);
      expect(JSON.stringify(answer).length).toBeLessThan(5 * 1024 * 1024 + 2048);
    }
  });

  it('in 2026-07-28 a read carries a private cache hint lasting until the output expires', async () => {
    const { result } = await call(server, 'big_text', { n: 5_000 }, true);
    expect(result.resultType).toBe('complete');
    const answer = await read(server, links(result)[0].uri, true);
    expect(answer.result.cacheScope).toBe('private');
    expect(answer.result.ttlMs).toBeGreaterThan(7 * DAY - 60_000);
    expect(answer.result.ttlMs).toBeLessThanOrEqual(7 * DAY);
  });

  it('keeps structuredContent when an outputSchema requires it, and links its large text copy', async () => {
    const { result } = await call(server, 'rows', { n: 5_000 });
    expect(result.structuredContent.rows).toHaveLength(5_000);
    expect(links(result)[0].mimeType).toBe('application/json');
    expect((await readAll(server, result)).toString('utf8')).toBe(JSON.stringify(result.structuredContent));
  });

  it('removes large structuredContent without an outputSchema, and links it as JSON', async () => {
    const { result } = await call(server, 'rows_free', { n: 5_000 });
    expect(result).not.toHaveProperty('structuredContent');
    const json = JSON.parse((await readAll(server, result)).toString('utf8'));
    expect(json.rows).toHaveLength(5_000);
  });

  it('a tool can store a payload explicitly and return the link', async () => {
    const { result } = await call(server, 'store_explicitly');
    const [link] = links(result);
    expect(link).toMatchObject({ name: 'report.md', mimeType: 'text/markdown', size: 20 });
    const answer = await read(server, link.uri);
    expect(answer.result.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: '# Report\n\nAll good.\n',
    });
  });

  it('leaves small outputs inline and never touches storage for them', async () => {
    const before = s3.requests.length;
    const { result } = await call(server, 'big_text', { n: 10 });
    expect(links(result)).toHaveLength(0);
    expect(s3.requests.length).toBe(before);
  });
});

describe('URIs that are not a live stored output', () => {
  const ID = '0123456789abcdef0123456789abcdef';
  let real: string;
  let expiredUri: string;

  beforeAll(async () => {
    real = links((await call(server, 'big_text', { n: 5_000 })).result)[0].uri;
    // Written with a clock eight days back: it expired yesterday (the lifecycle rule may not have run yet).
    const past = buildServer(s3.storage(), { now: () => Date.now() - 8 * DAY });
    expiredUri = links((await call(past, 'big_text', { n: 5_000 })).result)[0].uri;
    // An object under the prefix that this feature did not write (no metadata).
    await s3.storage().put(`${PREFIX}${'f'.repeat(32)}`, Buffer.from('planted'), {
      contentType: 'text/plain',
      metadata: {},
    });
  });

  const cases: [string, () => string, 'never' | 'inside'][] = [
    ['tampered (one id digit changed)', () => real.slice(0, -1) + (real.endsWith('0') ? '1' : '0'), 'inside'],
    ['unknown', () => `mcp-output://outputs/${ID}`, 'inside'],
    ['expired', () => expiredUri, 'inside'],
    ['not written by this server', () => `mcp-output://outputs/${'f'.repeat(32)}`, 'inside'],
    ['a part of an output stored whole', () => `${real}/part-1`, 'inside'],
    ['truncated', () => real.slice(0, -3), 'never'],
    ['extended', () => `${real}00`, 'never'],
    ['path traversal', () => `mcp-output://outputs/../../etc/${ID}`, 'never'],
    ['encoded path traversal', () => `mcp-output://outputs/%2e%2e%2f${ID}`, 'never'],
    ['foreign prefix', () => real.replace('outputs/', 'private/'), 'never'],
    ['another bucket-like prefix', () => `mcp-output://${ID}`, 'never'],
    ['upper-case id', () => real.toUpperCase().replace('MCP-OUTPUT', 'mcp-output'), 'never'],
    ['with a query', () => `${real}?versionId=1`, 'never'],
    ['with a fragment', () => `${real}#x`, 'never'],
    ['part zero', () => `${real}/part-0`, 'never'],
    ['the bare scheme', () => 'mcp-output:', 'never'],
  ];

  it.each(cases)(
    '%s: -32002 with data.uri in the handshake era, like any unknown URI',
    async (_what, uri, reach) => {
      const before = s3.requests.length;
      const answer = await read(server, uri());
      expect(answer.error).toEqual({
        code: -32002,
        message: `Resource not found: ${uri()}`,
        data: { uri: uri() },
      });
      const keys = s3.requests.slice(before).map((r) => r.key);
      if (reach === 'never') expect(keys).toEqual([]);
      else {
        expect(keys).toHaveLength(1);
        expect(keys[0]!.startsWith(PREFIX)).toBe(true);
        expect(`mcp-output://${keys[0]}`).toBe(uri());
      }
    },
  );

  it.each(cases)('%s: -32602 with data.uri in 2026-07-28 (never -32002)', async (_what, uri) => {
    const answer = await read(server, uri(), true);
    expect(answer.error).toEqual({
      code: -32602,
      message: `Resource not found: ${uri()}`,
      data: { uri: uri() },
    });
  });

  it('every key ever requested from S3 in this file lies under the prefix', () => {
    const keys = s3.keys();
    expect(keys.length).toBeGreaterThan(10);
    expect(keys.filter((k) => !k.startsWith(PREFIX))).toEqual([]);
  });

  it('an output bound to one caller is not found for another', async () => {
    const storage = s3.storage();
    const offloader = createOffloader({ storage, prefix: PREFIX, thresholdBytes: 10, ttlDays: 1 });
    const link = await offloader.store(
      { data: 'mine', mimeType: 'text/plain' },
      { tool: 't', requestId: 'r', log: silentLogger, principal: 'alice-key' },
    );
    const provider = storedOutputs({ storage, prefix: PREFIX });
    const ctx = { era: 'handshake' as const, requestId: 'r', log: silentLogger };
    expect(await provider.read(link.uri, { ...ctx, principal: 'alice-key' })).toBeDefined();
    expect(await provider.read(link.uri, { ...ctx, principal: 'bob-key' })).toBeUndefined();
    expect(await provider.read(link.uri, ctx)).toBeUndefined();
  });
});

describe('storage faults', () => {
  const safe = (text: string) =>
    expect(text).not.toMatch(/ECONNREFUSED|ECONNRESET|StorageError|\bat \w|127\.0\.0\.1|node_modules/);

  it('S3 stopping during a call: isError saying the output could not be stored, then the next calls work', async () => {
    stopMidCall = true;
    try {
      const { result } = await call(server, 'big_text', { n: 5_000 });
      expect(result.isError).toBe(true);
      expect(result.content).toHaveLength(1);
      expect(result.content[0].text).toMatch(/could not be stored/);
      safe(result.content[0].text);
    } finally {
      stopMidCall = false;
    }
    expect((await call(server, 'ping')).result.content[0].text).toBe('pong');
    await s3.start();
    const { result } = await call(server, 'big_text', { n: 5_000 });
    expect(links(result)).toHaveLength(1);
  });

  it('S3 down during resources/read: -32603 with a safe message, and the read works again once S3 is back', async () => {
    const { result } = await call(server, 'big_text', { n: 5_000 });
    const uri = links(result)[0].uri;
    await s3.stop();
    try {
      for (const stateless of [false, true]) {
        const answer = await read(server, uri, stateless);
        expect(answer.error.code).toBe(-32603);
        expect(answer.error.message).toBe(
          'The stored output could not be read right now (request id test-request); try again shortly.',
        );
        safe(JSON.stringify(answer));
      }
      expect((await call(server, 'ping')).result.content[0].text).toBe('pong');
    } finally {
      await s3.start();
    }
    expect((await read(server, uri)).result.contents[0].text).toContain('line 0');
  });

  it('a store whose third part fails: the parts already in S3 are deleted again', async () => {
    const real = s3.storage();
    let puts = 0;
    let landed!: () => void;
    const twoLanded = new Promise<void>((resolve) => (landed = resolve));
    let done = 0;
    const failing: StorageWriter & StorageReader = {
      ...real,
      put: async (key, body, attributes, call) => {
        puts += 1;
        if (puts === 3) {
          // Fail once two parts are in S3, so there is something to clean up.
          await twoLanded;
          throw new Error('third part refused');
        }
        await real.put(key, body, attributes, call);
        if (++done === 2) landed();
      },
    };
    const seen = s3.requests.length;
    const { result } = await call(buildServer(failing), 'big_image', { n: 12 * 1024 * 1024 });
    expect(result.isError).toBe(true);
    const requests = s3.requests.slice(seen);
    const written = requests.filter((r) => r.method === 'PUT').map((r) => r.key);
    const deleted = requests.filter((r) => r.method === 'DELETE').map((r) => r.key);
    expect(written.length).toBeGreaterThan(0);
    expect(deleted).toEqual(expect.arrayContaining(written));
    for (const key of written) expect(await real.get(key!)).toBeUndefined();
  });

  it('storage at a dead port: isError on offload, -32603 on read, and small calls still work', async () => {
    const dead = buildServer(
      (await import('../../src/storage/s3.ts')).s3Storage({
        bucket: 'test-outputs',
        endpoint: await deadEndpoint(),
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }),
    );
    const { result } = await call(dead, 'big_image', { n: 100_000 });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/could not be stored/);
    safe(result.content[0].text);
    const answer = await read(dead, `mcp-output://outputs/${'a'.repeat(32)}`);
    expect(answer.error.code).toBe(-32603);
    safe(JSON.stringify(answer));
    expect((await call(dead, 'ping')).result.content[0].text).toBe('pong');
    expect((await call(dead, 'big_text', { n: 10 })).result.isError).toBeUndefined();
  });
});
