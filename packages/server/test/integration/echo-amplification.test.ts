import { describe, expect, it } from 'vitest';
import { defineTool, staticResources, ToolError, type Logger } from '../../src/index.ts';
import { createMcpServer, createOffloader } from '../../src/faces/lambda.ts';
import { memoryStorage } from '../../src/faces/backend.ts';
import type { HttpRequest } from '../../src/wire/types.ts';
import { BASE_HEADERS, statelessMeta } from '@mcp-lambda/dev/testing';

/**
 * Amplification: whatever a client sends, the answer is at most the request's size plus 8 KB, nothing is stored,
 * and no log line reaches 16 KB. One row per place the server may repeat a client string.
 */

const SLACK_BYTES = 8 * 1024;
const MAX_LOG_LINE_BYTES = 16 * 1024;
const big = 'x'.repeat(900_000);
/** Quotes double when escaped as JSON: a reply that repeated them would grow faster than the request. */
const quotes = '"'.repeat(300_000);

const storage = memoryStorage();
let longestLogLine = 0;
const record =
  (level: string) =>
  (message: string, ...attributes: Record<string, unknown>[]) => {
    const line = JSON.stringify({ level, message, ...Object.assign({}, ...attributes) });
    longestLogLine = Math.max(longestLogLine, Buffer.byteLength(line));
  };
const log: Logger = {
  debug: record('DEBUG'),
  info: record('INFO'),
  warn: record('WARN'),
  error: record('ERROR'),
};

const server = createMcpServer({
  info: { name: 'echo', version: '1.0.0' },
  logging: true,
  completions: true,
  tools: [
    defineTool({
      name: 'strict',
      description: 'takes one known field and a map of numbers',
      inputSchema: {
        type: 'object',
        properties: {
          known: { type: 'string' },
          nested: { type: 'object', properties: {}, additionalProperties: { type: 'number' } },
          closed: { type: 'object', properties: {}, additionalProperties: false },
        },
        additionalProperties: false,
      },
      handler: () => 'ok',
    }),
    defineTool({
      name: 'progressing',
      description: 'reports progress many times',
      handler: (_args, ctx) => {
        for (let i = 1; i <= 200; i++) ctx.progress(i, 200);
        return 'done';
      },
    }),
    defineTool({
      name: 'audited',
      description: 'logs its arguments',
      logArguments: true,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: () => 'ok',
    }),
    defineTool({
      name: 'quoting',
      description: 'fails with a message quoting its input',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: ({ text }) => {
        throw new Error(`cannot handle ${String(text)}`);
      },
    }),
    defineTool({
      name: 'long_error',
      description: 'fails with a long message of its own',
      handler: () => {
        throw new ToolError(`${'The tool explains at length. '.repeat(2000)}`);
      },
    }),
  ],
  resources: [
    staticResources([], [{ uriTemplate: 'file:///docs/{name}', name: 'doc', read: (v) => `doc ${v.name}` }]),
  ],
  prompts: [{ name: 'greet', handler: () => 'hello' }],
  offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 1024, ttlDays: 1 }),
});

interface Case {
  method?: string;
  path?: string;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  /** Something the answer must contain, to show the request reached the place under test. */
  expect: RegExp;
}

const rpc = (method: string, params: Record<string, unknown> = {}, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});
const stateless = (method: string, params: Record<string, unknown> = {}, id: string | number = 1) =>
  rpc(method, { ...params, _meta: statelessMeta() }, id);
const statelessHeaders = (method: string, name?: string) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name !== undefined ? { 'mcp-name': name } : {}),
});

const cases: Record<string, Case> = {
  'an unknown tool name': { body: rpc('tools/call', { name: big }), expect: /Unknown tool/ },
  'an unknown tool name of quotes': { body: rpc('tools/call', { name: quotes }), expect: /Unknown tool/ },
  'an unknown tool name (2026-07-28)': {
    headers: statelessHeaders('tools/call', big),
    body: stateless('tools/call', { name: big }),
    expect: /Unknown tool/,
  },
  'an unknown method': { body: rpc(big), expect: /Method not found/ },
  'an unknown method (2026-07-28, 404)': {
    headers: statelessHeaders(big),
    body: stateless(big),
    expect: /Method not found/,
  },
  'an unknown resource URI': { body: rpc('resources/read', { uri: big }), expect: /Resource not found/ },
  'an unknown resource URI (2026-07-28)': {
    headers: statelessHeaders('resources/read', big),
    body: stateless('resources/read', { uri: big }),
    expect: /Resource not found/,
  },
  'an unknown argument name': {
    body: rpc('tools/call', { name: 'strict', arguments: { [big]: 1 } }),
    expect: /unexpected field/,
  },
  'many unknown argument names': {
    body: rpc('tools/call', {
      name: 'strict',
      arguments: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${i}${'y'.repeat(90_000)}`, 1])),
    }),
    expect: /and 5 more/,
  },
  'an unknown nested argument name': {
    body: rpc('tools/call', { name: 'strict', arguments: { closed: { [big]: 1 } } }),
    expect: /closed.{0,2} has unexpected field/,
  },
  'a wrong value under a long argument path': {
    body: rpc('tools/call', { name: 'strict', arguments: { nested: { [big]: 'not a number' } } }),
    expect: /must be number/,
  },
  'an inputResponses key': {
    headers: statelessHeaders('tools/call', 'strict'),
    body: stateless('tools/call', { name: 'strict', inputResponses: { [big]: 'not an object' } }),
    expect: /inputResponses/,
  },
  'an Mcp-Method header that disagrees with the body': {
    headers: statelessHeaders(big),
    body: stateless('tools/list'),
    expect: /Header mismatch/,
  },
  'an Mcp-Name header that disagrees with the body': {
    headers: statelessHeaders('tools/call', big),
    body: stateless('tools/call', { name: 'strict' }),
    expect: /Header mismatch/,
  },
  'an MCP-Protocol-Version header no revision has': {
    headers: { 'mcp-protocol-version': big },
    body: rpc('tools/list'),
    expect: /Unsupported protocol version/,
  },
  'a protocol version claimed in _meta that is not served': {
    headers: { 'mcp-protocol-version': undefined },
    body: rpc('tools/list', {
      _meta: { ...statelessMeta(), 'io.modelcontextprotocol/protocolVersion': big },
    }),
    expect: /Unsupported protocol version/,
  },
  'a pagination cursor': { body: rpc('tools/list', { cursor: big }), expect: /cursor/ },
  'a prompt name': { body: rpc('prompts/get', { name: big }), expect: /unknown prompt/ },
  'a resource template URI to complete': {
    body: rpc('completion/complete', {
      ref: { type: 'ref/resource', uri: big },
      argument: { name: 'name', value: 'a' },
    }),
    expect: /unknown resource template/,
  },
  'a progress token repeated by every progress notification': {
    headers: { accept: 'application/json, text/event-stream' },
    body: rpc('tools/call', { name: 'progressing', _meta: { progressToken: big } }),
    expect: /done/,
  },
  'a request id that a subscription would repeat': {
    headers: { ...statelessHeaders('subscriptions/listen'), accept: 'text/event-stream' },
    body: stateless('subscriptions/listen', { notifications: {} }, big),
    expect: /subscriptions\/acknowledged/,
  },
  'a request id on an error': { body: rpc('no/such/method', {}, big), expect: /Method not found/ },
  'a requestState': {
    headers: statelessHeaders('tools/call', 'strict'),
    body: stateless('tools/call', { name: 'strict', requestState: big }),
    expect: /requestState is invalid/,
  },
  'a path': { path: `/${big}`, body: rpc('tools/list'), expect: /Not found/ },
  'an HTTP method': { method: big, body: rpc('tools/list'), expect: /Method not allowed/ },
  'arguments of a tool that logs them': {
    body: rpc('tools/call', { name: 'audited', arguments: { text: big } }),
    expect: /ok/,
  },
  'an error message that quotes the arguments': {
    body: rpc('tools/call', { name: 'quoting', arguments: { text: big } }),
    expect: /failed unexpectedly/,
  },
};

function request(c: Case): HttpRequest {
  const headers = { ...BASE_HEADERS, ...c.headers };
  return {
    method: c.method ?? 'POST',
    path: c.path ?? '/mcp',
    headers,
    body: JSON.stringify(c.body),
  };
}

/** Everything the client sent that the server could repeat: method, path, header values and body. */
const sizeOf = (req: HttpRequest) =>
  Buffer.byteLength(req.method) +
  Buffer.byteLength(req.path) +
  Object.values(req.headers).reduce((n, v) => n + Buffer.byteLength(v ?? ''), 0) +
  Buffer.byteLength(req.body ?? '');

describe('no answer amplifies the request', () => {
  it.each(Object.entries(cases))('%s: the answer is at most the request plus 8 KB', async (_name, c) => {
    const req = request(c);
    const res = await server.handle(req, { requestId: 'amplification', log });
    expect(res.body).toMatch(c.expect);
    expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(sizeOf(req) + SLACK_BYTES);
    // Stricter: the only client string repeated whole is the JSON-RPC id, which the response must carry.
    const idBytes = Buffer.byteLength(JSON.stringify((c.body as { id?: unknown }).id ?? null));
    expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(idBytes + SLACK_BYTES);
  });

  it('an error result is never stored, even above the offload threshold', async () => {
    const req = request({ body: rpc('tools/call', { name: 'long_error' }), expect: /./ });
    const res = await server.handle(req, { requestId: 'amplification', log });
    expect(JSON.parse(res.body).result).toMatchObject({ isError: true });
    expect(storage.objects.size).toBe(0);
  });

  it('nothing was stored for any of the requests above', () => {
    expect(storage.objects.size).toBe(0);
  });

  it('no log line written for any of them reached 16 KB', () => {
    expect(longestLogLine).toBeGreaterThan(0);
    expect(longestLogLine).toBeLessThan(MAX_LOG_LINE_BYTES);
  });
});
