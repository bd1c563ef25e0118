import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import {
  createFetchHandler,
  createMcpServer,
  createOffloader,
  silentLogger,
  storedOutputPages,
  storedOutputs,
} from '../../src/faces/lambda.ts';
import { memoryStorage } from '../../src/faces/backend.ts';
import { BASE_HEADERS, statelessHeaders, statelessMeta, readEvents } from '@mcp-lambda/dev/testing';

/**
 * The server as a Fetch handler, mounted in a Hono app on Node (@hono/node-server), answering real HTTP: the same
 * bytes as behind the Lambda adapters, in both eras, with stored outputs in memory and streamed tool calls.
 */

const THRESHOLD = 2_000;
const LINE = 'the quick brown fox jumps over the lazy dog\n';
const storage = memoryStorage();
/** Settles when the cancellable tool's signal fires. */
let toolCancelled!: () => void;
const cancelled = new Promise<void>((resolve) => (toolCancelled = resolve));
const server = createMcpServer({
  info: { name: 'fetch-test', version: '1.0.0' },
  tools: [
    defineTool({ name: 'echo', description: 'Echoes its text', handler: () => 'pong' }),
    defineTool({ name: 'big_text', description: 'Returns 200 lines', handler: () => LINE.repeat(200) }),
    defineTool({
      name: 'steps',
      description: 'Reports progress twice, then returns',
      handler: async (_args, ctx) => {
        ctx.progress(1, 2, 'halfway');
        await new Promise((resolve) => setTimeout(resolve, 20));
        ctx.progress(2, 2, 'done');
        return 'finished';
      },
    }),
    defineTool({
      name: 'until_cancelled',
      description: 'Reports progress, then runs until its signal fires',
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            toolCancelled();
            resolve('stopped');
          });
          ctx.progress(0, 1, 'started');
        }),
    }),
  ],
  resources: [storedOutputs({ storage, prefix: 'outputs/' })],
  offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: THRESHOLD, ttlDays: 1 }),
  outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
  http: { maxBodyBytes: 64 * 1024 },
});

let listening: ServerType;
let base: string;

beforeAll(async () => {
  const app = new Hono();
  const fetchMcp = createFetchHandler(server, { log: silentLogger, timeoutMs: 10_000 });
  app.all('/mcp', (c) => fetchMcp(c.req.raw));
  listening = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`;
});

afterAll(() => new Promise<void>((resolve) => listening.close(() => resolve())));

type Era = 'handshake' | 'stateless';

/** One JSON-RPC request in an era, as a client of that era sends it. */
async function rpc(era: Era, method: string, params: Record<string, unknown> = {}, name?: string) {
  const headers = era === 'handshake' ? BASE_HEADERS : { ...BASE_HEADERS, ...statelessHeaders(method, name) };
  const body =
    era === 'handshake' ? params : { ...params, _meta: { ...statelessMeta(), ...(params._meta ?? {}) } };
  const res = await fetch(base, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: body }),
  });
  return { res, json: (await res.json()) as any };
}

/** The text of a tool result's blocks. */
const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((block) => block.text ?? '').join('');

describe.each<Era>(['handshake', 'stateless'])('the Fetch handler in Hono, %s era', (era) => {
  it('lists the tools', async () => {
    const { res, json } = await rpc(era, 'tools/list');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const names = json.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'big_text', 'steps', 'read_output']));
  });

  it('calls a tool', async () => {
    const { json } = await rpc(era, 'tools/call', { name: 'echo', arguments: {} }, 'echo');
    expect(textOf(json.result)).toBe('pong');
    expect(json.result.isError).toBeFalsy();
  });

  it('stores a large output and reads it back through resources/read and read_output', async () => {
    const { json } = await rpc(era, 'tools/call', { name: 'big_text', arguments: {} }, 'big_text');
    const link = json.result.content.find((block: { type: string }) => block.type === 'resource_link');
    expect(link.uri).toMatch(/^mcp-output:\/\/outputs\//);
    const read = await rpc(era, 'resources/read', { uri: link.uri }, link.uri);
    expect(read.json.result.contents[0].text).toBe(LINE.repeat(200));
    const page = await rpc(
      era,
      'tools/call',
      { name: 'read_output', arguments: { uri: link.uri, line: 2, count: 1 } },
      'read_output',
    );
    expect(page.json.result.isError).toBeFalsy();
    expect(textOf(page.json.result)).toContain(LINE.trim());
  });

  it('streams a tool call as events when the client accepts them: progress first, then the result', async () => {
    const params = { name: 'steps', arguments: {}, _meta: { progressToken: 'p1' } };
    const headers =
      era === 'handshake' ? BASE_HEADERS : { ...BASE_HEADERS, ...statelessHeaders('tools/call', 'steps') };
    const body =
      era === 'handshake' ? params : { ...params, _meta: { ...statelessMeta(), progressToken: 'p1' } };
    const res = await fetch(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: body }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const messages = (await readEvents(res.body!)).flatMap((event) => (event.message ? [event.message] : []));
    expect(messages.map((m) => m.method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
    expect(messages[0]!.params).toMatchObject({ progressToken: 'p1', progress: 1, total: 2 });
    expect(messages[2]).toMatchObject({ id: 7 });
    expect(textOf(messages[2]!.result)).toBe('finished');
  });
});

describe('the Fetch handler in Hono, era rules and HTTP', () => {
  it('answers ping in the handshake era and refuses it in 2026-07-28 (404, -32601)', async () => {
    expect((await rpc('handshake', 'ping')).json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const stateless = await rpc('stateless', 'ping');
    expect(stateless.res.status).toBe(404);
    expect(stateless.json.error.code).toBe(-32601);
  });

  it('answers initialize in the handshake era and server/discover in 2026-07-28', async () => {
    const init = await rpc('handshake', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'hono-test', version: '1.0.0' },
    });
    expect(init.json.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'fetch-test' },
    });
    const discover = await rpc('stateless', 'server/discover');
    expect(discover.json.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2025-11-25', '2026-07-28']),
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fetch-test', version: '1.0.0' } },
    });
  });

  it('cancels a streamed call when the client goes away: the tool signal fires', async () => {
    const client = new AbortController();
    const res = await fetch(base, {
      method: 'POST',
      headers: BASE_HEADERS,
      signal: client.signal,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'until_cancelled', arguments: {}, _meta: { progressToken: 'p2' } },
      }),
    });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('notifications/progress');
    client.abort();
    await cancelled;
  });

  it('answers GET with 405 and an Allow header', async () => {
    const res = await fetch(base, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('refuses a body over the server limit with 413, reading no more of it than the limit', async () => {
    const res = await fetch(base, { method: 'POST', headers: BASE_HEADERS, body: 'x'.repeat(200 * 1024) });
    expect(res.status).toBe(413);
  });

  it('answers a notification with 202 and no body', async () => {
    const res = await fetch(base, {
      method: 'POST',
      headers: BASE_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });
});
