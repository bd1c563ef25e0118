import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import { serveServer, type RunningServer } from '@mcp-lambda/dev/testing';

/** A path that looks like the inside of a deployed function: it must never reach a client. */
const INTERNAL_PATH = '/var/task/node_modules/.internal/secret-config.json';
const BODY_LIMIT = 4096;

const tools = [
  defineTool({
    name: 'explode',
    description: 'Always fails with an internal error.',
    handler: () => {
      throw new Error(`ENOENT: no such file or directory, open '${INTERNAL_PATH}'`);
    },
  }),
  defineTool({
    name: 'hang',
    description: 'Never finishes.',
    handler: () => new Promise<string>(() => undefined),
  }),
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    handler: ({ a, b }) => String(a + b),
  }),
];

let server: RunningServer;
beforeAll(async () => {
  server = await serveServer({
    info: { name: 'bad-input', version: '1.0.0' },
    tools,
    toolTimeoutMs: 300,
    http: { maxBodyBytes: BODY_LIMIT },
  });
});
afterAll(() => server?.close());

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Sent {
  method?: string;
  /** Another path on the same server (default: the MCP endpoint). */
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send with node:http instead of fetch, which always adds an Accept header and a Content-Type. */
  raw?: boolean;
}

interface Received {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function viaFetch(url: string, sent: Sent): Promise<Received> {
  const res = await fetch(url, {
    method: sent.method ?? 'POST',
    headers: sent.headers ?? JSON_HEADERS,
    ...(sent.body !== undefined ? { body: sent.body } : {}),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

/** Exactly the given header lines and bytes, nothing added. */
function viaNodeHttp(url: string, sent: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: sent.method ?? 'POST', headers: sent.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(sent.body);
  });
}

function exchange(sent: Sent): Promise<Received> {
  const url = sent.path ? `${server.base}${sent.path}` : server.url;
  return sent.raw ? viaNodeHttp(url, sent) : viaFetch(url, sent);
}

const rpc = (method: string, params?: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
const call = (name: string, args: unknown = {}) => rpc('tools/call', { name, arguments: args });

interface Row {
  name: string;
  sent: Sent;
  status: number;
  /** JSON-RPC error code of the answer. */
  code?: number;
  /** The id the error answer carries (default null for rejected messages). */
  id?: unknown;
  /** The answer is a tool result with isError, whose text matches this. */
  isError?: RegExp;
  /** Extra response headers expected. */
  headers?: Record<string, string>;
}

const rows: Row[] = [
  {
    name: 'invalid JSON',
    sent: { body: '{"jsonrpc": "2.0", "id": 1,' },
    status: 400,
    code: -32700,
    id: null,
  },
  { name: 'an empty body', sent: { body: '' }, status: 400, code: -32700, id: null },
  { name: 'non-object JSON', sent: { body: '42' }, status: 400, code: -32600, id: null },
  { name: 'a batch array', sent: { body: `[${rpc('ping')}]` }, status: 400, code: -32600, id: null },
  {
    name: 'a wrong jsonrpc version',
    sent: { body: '{"jsonrpc":"1.0","id":5,"method":"ping"}' },
    status: 400,
    code: -32600,
    id: 5,
  },
  { name: 'a missing method', sent: { body: '{"jsonrpc":"2.0","id":6}' }, status: 400, code: -32600, id: 6 },
  { name: 'a null id', sent: { body: rpc('ping', undefined, null) }, status: 400, code: -32600, id: null },
  {
    name: 'a fractional id',
    sent: { body: rpc('ping', undefined, 1.5) },
    status: 400,
    code: -32600,
    id: null,
  },
  { name: 'a boolean id', sent: { body: rpc('ping', undefined, true) }, status: 400, code: -32600, id: null },
  {
    name: 'an object id',
    sent: { body: rpc('ping', undefined, { n: 1 }) },
    status: 400,
    code: -32600,
    id: null,
  },
  { name: 'an unknown method', sent: { body: rpc('tools/destroy') }, status: 200, code: -32601, id: 1 },
  { name: 'an unknown tool', sent: { body: call('nope') }, status: 200, code: -32602, id: 1 },
  {
    name: 'invalid arguments',
    sent: { body: call('add', { a: 1, b: 'two' }) },
    status: 200,
    isError: /"b" must be number/,
  },
  {
    name: 'a missing argument',
    sent: { body: call('add', { a: 1 }) },
    status: 200,
    isError: /missing required field "b"/,
  },
  {
    name: 'a body over the limit',
    sent: { body: call('add', { a: 1, b: 2, pad: 'x'.repeat(BODY_LIMIT) }) },
    status: 413,
    code: -32000,
  },
  {
    name: 'a wrong Content-Type',
    sent: { headers: { ...JSON_HEADERS, 'content-type': 'text/plain' }, body: rpc('ping') },
    status: 415,
    code: -32000,
  },
  {
    name: 'a missing Content-Type',
    sent: { raw: true, headers: { accept: JSON_HEADERS.accept }, body: rpc('ping') },
    status: 415,
    code: -32000,
  },
  {
    name: 'a missing Accept',
    sent: { raw: true, headers: { 'content-type': 'application/json' }, body: rpc('ping') },
    status: 406,
    code: -32000,
  },
  {
    name: 'an Accept with neither JSON nor an event stream',
    sent: { headers: { ...JSON_HEADERS, accept: 'text/html' }, body: rpc('ping') },
    status: 406,
    code: -32000,
  },
  {
    name: 'GET',
    sent: { method: 'GET', headers: {} },
    status: 405,
    code: -32000,
    headers: { allow: 'POST' },
  },
  {
    name: 'DELETE',
    sent: { method: 'DELETE', headers: { 'mcp-session-id': 'abc' } },
    status: 405,
    code: -32000,
    headers: { allow: 'POST' },
  },
  {
    name: 'an unknown MCP-Protocol-Version header',
    sent: { headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2024-01-01' }, body: rpc('tools/list') },
    status: 400,
    code: -32022,
    id: 1,
  },
  {
    name: 'a foreign Origin',
    sent: { headers: { ...JSON_HEADERS, origin: 'https://evil.example' }, body: rpc('ping') },
    status: 403,
    code: -32000,
  },
  {
    name: 'a POST to another path',
    sent: { path: '/other', body: rpc('ping') },
    status: 404,
    code: -32000,
  },
  {
    name: 'a tool that throws',
    sent: { body: call('explode') },
    status: 200,
    isError: /failed unexpectedly; the error was logged with request id [0-9a-f-]{36}/,
  },
  {
    name: 'a tool that hangs',
    sent: { body: call('hang') },
    status: 200,
    isError: /did not finish within its time budget of 300 ms/,
  },
];

describe('bad input over real HTTP (Streamable HTTP transport rules, tool argument errors)', () => {
  it.each(rows)('$name → $status', async ({ sent, status, code, id = null, isError, headers }) => {
    const res = await exchange(sent);
    expect(res.status).toBe(status);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect(res.body).not.toContain(INTERNAL_PATH);
    expect(res.body).not.toMatch(/ENOENT|\n\s+at |\.ts:\d+/);
    for (const [key, value] of Object.entries(headers ?? {})) expect(res.headers[key]).toBe(value);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const answer = JSON.parse(res.body);
    expect(answer.jsonrpc).toBe('2.0');
    if (code !== undefined) {
      expect(answer.error.code).toBe(code);
      expect(typeof answer.error.message).toBe('string');
      expect(answer.id).toEqual(id);
      expect(answer.result).toBeUndefined();
    } else {
      expect(answer.id).toBe(1);
      expect(answer.result.isError).toBe(true);
      expect(answer.result.content[0].type).toBe('text');
      expect(answer.result.content[0].text).toMatch(isError!);
    }
  });

  it('the over-size answer names the limit', async () => {
    const res = await exchange({ body: call('add', { pad: 'x'.repeat(BODY_LIMIT * 2) }) });
    expect(JSON.parse(res.body).error.message).toContain(`${BODY_LIMIT} bytes`);
  });

  it('after every bad request above, the same server still answers a valid call', async () => {
    const res = await exchange({ body: call('add', { a: 2, b: 40 }) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '42' }] },
    });
  });
});
