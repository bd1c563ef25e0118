import { describe, expect, it } from 'vitest';
import { serverResources } from '../../src/resources.ts';
import { tools as exampleTools } from '../../src/tools/index.ts';
import { defineTool, staticResources, ToolError } from '@mcp-lambda/server';
import { createMcpServer } from '@mcp-lambda/server/lambda';
import { send } from '@mcp-lambda/dev/testing';

/**
 * The handshake-era rules (Streamable HTTP transport, lifecycle, tools, resources and utilities of revisions
 * 2025-03-26 to 2025-11-25), one test (or table row) per applicable line of the spec,
 * sent straight into the transport (no socket needed: these are HTTP rules over neutral requests).
 */

const NUMBERED = Array.from({ length: 5 }, (_, i) =>
  defineTool({ name: `tool_${i}`, description: `Tool number ${i}.`, handler: () => `t${i}` }),
);

const fixture = createMcpServer({
  info: { name: 'handshake-fixture', version: '1.2.3', title: 'Handshake fixture' },
  instructions: 'Use the tools.',
  pageSize: 2,
  tools: [
    defineTool({
      name: 'echo_context',
      description: 'Reports the era and protocol version the request was served in.',
      handler: (_args, ctx) => `${ctx.era} ${ctx.protocolVersion}`,
    }),
    defineTool({
      name: 'needs_b',
      description: 'Needs a number b.',
      inputSchema: { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      handler: ({ b }) => {
        if (b === 0) throw new ToolError('b must not be 0');
        if (b < 0) throw new Error('internal failure at /srv/app/secret.ts:12');
        return String(b);
      },
    }),
    ...NUMBERED,
  ],
  resources: [
    staticResources([
      { uri: 'docs://fixture/readme', name: 'readme', mimeType: 'text/plain', read: () => 'hello' },
    ]),
  ],
  http: { allowedOrigins: ['https://app.example.com'], allowedHosts: ['127.0.0.1:*', 'localhost:*'] },
});

/** The example server as `functions/mcp/handler.ts` builds it. */
const example = createMcpServer({
  info: { name: 'example', version: '0.1.0', title: 'MCP on AWS Lambda' },
  tools: exampleTools,
  resources: [serverResources],
});

const HOST = { host: '127.0.0.1:3000' };
const req = (method: string, params?: unknown, id: string | number = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params !== undefined ? { params } : {}),
});
const rpc = (method: string, params?: unknown, headers: Record<string, string | undefined> = {}) =>
  send(fixture, { headers: { ...HOST, ...headers }, body: req(method, params) });
const toolText = (res: { json: any }) => res.json.result.content[0].text as string;

describe('HTTP transport (rules 1–10)', () => {
  it('1: a JSON array (batch) is a 400 with a JSON-RPC error', async () => {
    const res = await send(fixture, { headers: HOST, body: [req('ping')] });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('2: a request is answered 200 application/json with exactly one response', async () => {
    const res = await rpc('ping');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('2: the JSON-RPC error of a well-formed request also travels in a 200', async () => {
    const res = await rpc('no/such/method');
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32601);
  });

  it.each([
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    [
      'notifications/cancelled for an unknown request',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
    ],
    ['a client result response', { jsonrpc: '2.0', id: 'srv-1', result: {} }],
    ['a client error response', { jsonrpc: '2.0', id: 'srv-1', error: { code: -1, message: 'declined' } }],
  ])('3, 13, 24: %s is acknowledged 202 with an empty body', async (_name, body) => {
    const res = await send(fixture, { headers: HOST, body });
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
  });

  it.each([
    ['invalid JSON', { raw: '{"jsonrpc":' }, 400, -32700],
    [
      'a wrong Content-Type',
      { raw: JSON.stringify(req('ping')), headers: { 'content-type': 'text/plain' } },
      415,
      -32000,
    ],
    [
      'a body over the limit',
      { raw: JSON.stringify(req('ping', { pad: 'x'.repeat(1024 * 1024) })) },
      413,
      -32000,
    ],
  ])(
    '4: %s is answered %i',
    async (_name, init: { raw: string; headers?: Record<string, string> }, status, code) => {
      const res = await send(fixture, { ...init, headers: { ...HOST, ...init.headers } });
      expect(res.status).toBe(status);
      expect(res.json.error.code).toBe(code);
    },
  );

  it.each([
    ['application/json, text/event-stream', 'application/json'],
    ['text/event-stream, application/json', 'application/json'],
    ['application/json', 'application/json'],
    ['*/*', 'application/json'],
  ])('5: Accept %j is answered with %s', async (accept, contentType) => {
    const res = await rpc('ping', undefined, { accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(contentType);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('5: an SSE-only Accept is answered as an event stream that ends with the response', async () => {
    const res = await rpc('ping', undefined, { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.body).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
  });

  it.each([undefined, 'text/html', 'application/xml, text/plain'])('5: Accept %j is 406', async (accept) => {
    const res = await rpc('ping', undefined, { accept });
    expect(res.status).toBe(406);
  });

  it.each(['GET', 'DELETE'])('6: %s is 405 with an Allow header', async (method) => {
    const res = await send(fixture, { method, headers: { ...HOST, 'mcp-session-id': 'abc' } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('7: no response ever carries Mcp-Session-Id, even when the client sends one', async () => {
    const answers = await Promise.all([
      rpc('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
      rpc('tools/list', undefined, { 'mcp-session-id': 'abc' }),
      send(fixture, { headers: HOST, body: { jsonrpc: '2.0', method: 'notifications/initialized' } }),
      send(fixture, { method: 'GET', headers: HOST }),
      rpc('ping', undefined, { 'mcp-protocol-version': 'bogus' }),
    ]);
    for (const res of answers)
      expect(Object.keys(res.headers).map((h) => h.toLowerCase())).not.toContain('mcp-session-id');
  });

  it('8: without an MCP-Protocol-Version header a request is served as 2025-03-26', async () => {
    const res = await rpc('tools/call', { name: 'echo_context' }, { 'mcp-protocol-version': undefined });
    expect(toolText(res)).toBe('handshake 2025-03-26');
  });

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])(
    '8: the header version %s is the version served',
    async (v) => {
      const res = await rpc('tools/call', { name: 'echo_context' }, { 'mcp-protocol-version': v });
      expect(toolText(res)).toBe(`handshake ${v}`);
    },
  );

  it('8: an unknown MCP-Protocol-Version header is 400', async () => {
    const res = await rpc('tools/list', undefined, { 'mcp-protocol-version': '2024-11-05' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32022);
    expect(res.json.error.data.requested).toBe('2024-11-05');
  });

  it('8: initialize is judged by its body, not by the header', async () => {
    const res = await rpc(
      'initialize',
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    expect(res.status).toBe(200);
    expect(res.json.result.protocolVersion).toBe('2025-06-18');
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }, 403],
    ['the opaque null Origin', { origin: 'null' }, 403],
    ['a listed Origin', { origin: 'https://app.example.com' }, 200],
    ['no Origin (a non-browser client)', {}, 200],
    ['a rebound Host name', { host: 'evil.example:3000' }, 403],
    ['a loopback Host', { host: 'localhost:3000' }, 200],
  ])('9: %s → %i', async (_name, headers, status) => {
    const res = await rpc('ping', undefined, headers);
    expect(res.status).toBe(status);
    if (status === 403) expect(res.json.error.message).toMatch(/^Forbidden/);
  });

  it.each([
    ['a string id', 'abc-1'],
    ['an integer id', 0],
    ['a negative integer id', -7],
  ])('10: %s is echoed', async (_name, id) => {
    const res = await send(fixture, { headers: HOST, body: req('ping', undefined, id) });
    expect(res.json.id).toBe(id);
  });

  it.each([
    ['a readable id on an invalid message is kept', '{"jsonrpc":"2.0","id":"k","method":7}', 'k'],
    ['a readable id on an unknown method is kept', JSON.stringify(req('nope', undefined, 'm')), 'm'],
    ['an unreadable id becomes null', '{"jsonrpc":"2.0","id":[1],"method":"ping"}', null],
    ['a parse error has a null id', '{"id":3', null],
  ])('10: %s', async (_name, raw, id) => {
    const res = await send(fixture, { headers: HOST, raw });
    expect(res.json.error).toBeDefined();
    expect(res.json.id).toBe(id);
  });
});

describe('Lifecycle (rules 11–14)', () => {
  const initialize = (protocolVersion: unknown, server = fixture) =>
    send(server, {
      headers: HOST,
      body: req('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } }),
    });

  it('11: initialize answers protocolVersion, capabilities, serverInfo and instructions', async () => {
    const res = await initialize('2025-11-25');
    expect(res.json.result).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: { tools: {}, resources: {} },
      serverInfo: { name: 'handshake-fixture', version: '1.2.3', title: 'Handshake fixture' },
      instructions: 'Use the tools.',
    });
  });

  it.each([
    ['2025-03-26', '2025-03-26'],
    ['2025-06-18', '2025-06-18'],
    ['2025-11-25', '2025-11-25'],
    ['2024-11-05', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
    ['not-a-version', '2025-11-25'],
  ])('11: a client asking for %s is answered %s, never with an error', async (asked, answered) => {
    const res = await initialize(asked);
    expect(res.status).toBe(200);
    expect(res.json.result.protocolVersion).toBe(answered);
  });

  it('12: the example server advertises exactly tools, resources and the views extension', async () => {
    expect((await initialize('2025-06-18', example)).json.result.capabilities).toEqual({
      tools: {},
      resources: {},
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
  });

  it('12: a server without resources advertises tools only', async () => {
    const bare = createMcpServer({ info: { name: 'bare', version: '1' }, tools: NUMBERED });
    expect((await initialize('2025-06-18', bare)).json.result.capabilities).toEqual({ tools: {} });
  });

  it('13: ping answers an empty result', async () => {
    expect((await rpc('ping')).json.result).toEqual({});
  });

  it('14: a request with no earlier initialize is served, with the version from the header', async () => {
    const res = await rpc('tools/call', { name: 'echo_context' }, { 'mcp-protocol-version': '2025-06-18' });
    expect(toolText(res)).toBe('handshake 2025-06-18');
  });
});

describe('Tools (rules 15–19)', () => {
  it('15: tools/list pages with opaque cursors through every tool, in definition order', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await rpc('tools/list', cursor ? { cursor } : {});
      expect(res.json.result.tools.length).toBeLessThanOrEqual(2);
      names.push(...res.json.result.tools.map((t: { name: string }) => t.name));
      cursor = res.json.result.nextCursor;
      if (!cursor) break;
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    expect(names).toEqual(['echo_context', 'needs_b', 'tool_0', 'tool_1', 'tool_2', 'tool_3', 'tool_4']);
  });

  it.each([
    ['a cursor we did not issue', 'dG9vbHM6Mjp4eHg'],
    ['garbage', '%%%'],
    ['a number', 2],
  ])('15: %s is -32602', async (_name, cursor) => {
    const res = await rpc('tools/list', { cursor });
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32602);
  });

  it('16: every example tool is listed with a valid name, a description and an object inputSchema', async () => {
    const { tools } = (await send(example, { body: req('tools/list') })).json.result;
    expect(tools.length).toBe(exampleTools.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
      expect(typeof tool.description).toBe('string');
      expect(tool.inputSchema.type).toBe('object');
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
      expect(Object.keys(tool)).not.toContain('handler');
    }
    expect(new Set(tools.map((t: { name: string }) => t.name)).size).toBe(tools.length);
  });

  it('16: a tool without arguments lists the spec default inputSchema', async () => {
    const { tools } = (await send(example, { body: req('tools/list') })).json.result;
    expect(tools.find((t: { name: string }) => t.name === 'ping').inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
  });

  it('17: a result holds one block of each of the five types, each valid', async () => {
    const res = await send(example, { body: req('tools/call', { name: 'content_gallery', arguments: {} }) });
    const types = res.json.result.content.map((b: { type: string }) => b.type);
    expect(types).toEqual(['text', 'image', 'audio', 'resource_link', 'resource']);
    expect(res.json.result.isError).toBeUndefined();
  });

  it('18: an outputSchema result carries structuredContent and the same value as serialized text', async () => {
    const res = await send(example, {
      body: req('tools/call', { name: 'text_stats', arguments: { text: 'a b a' } }),
    });
    const { structuredContent, content } = res.json.result;
    expect(structuredContent).toMatchObject({ words: 3, lines: 1 });
    expect(JSON.parse(content[0].text)).toEqual(structuredContent);
  });

  it('19: an unknown tool is -32602', async () => {
    const res = await rpc('tools/call', { name: 'missing_tool' });
    expect(res.json.error.code).toBe(-32602);
  });

  it('19: arguments that fail the inputSchema are an isError result naming the field', async () => {
    const res = await rpc('tools/call', { name: 'needs_b', arguments: { b: 'x' } });
    expect(res.json.result.isError).toBe(true);
    expect(toolText(res)).toContain('"b" must be number');
  });

  it('19: a ToolError reaches the model as written', async () => {
    const res = await rpc('tools/call', { name: 'needs_b', arguments: { b: 0 } });
    expect(res.json.result).toEqual({ content: [{ type: 'text', text: 'b must not be 0' }], isError: true });
  });

  it('19: any other throw is an isError result without internals', async () => {
    const res = await rpc('tools/call', { name: 'needs_b', arguments: { b: -1 } });
    expect(res.json.result.isError).toBe(true);
    expect(toolText(res)).toContain('request id test-request');
    expect(res.body).not.toContain('/srv/app');
  });
});

describe('Resources (rules 20–23)', () => {
  it('20: resources/read answers the contents', async () => {
    const res = await rpc('resources/read', { uri: 'docs://fixture/readme' });
    expect(res.json.result).toEqual({
      contents: [{ uri: 'docs://fixture/readme', mimeType: 'text/plain', text: 'hello' }],
    });
  });

  it.each([
    'docs://fixture/missing',
    'docs://fixture/readme/../readme',
    'file:///etc/passwd',
    'DOCS://fixture/readme',
    'docs://fixture/readme?x=1',
  ])('21, 23: %s is -32002 with data.uri (unknown and malformed look the same)', async (uri) => {
    const res = await rpc('resources/read', { uri });
    expect(res.status).toBe(200);
    expect(res.json.error).toEqual({ code: -32002, message: `Resource not found: ${uri}`, data: { uri } });
  });

  it('21: a missing uri is -32602', async () => {
    expect((await rpc('resources/read', {})).json.error.code).toBe(-32602);
  });

  it('22: every resource_link the example tools return is readable', async () => {
    const res = await send(example, { body: req('tools/call', { name: 'content_gallery', arguments: {} }) });
    const links = res.json.result.content.filter((b: { type: string }) => b.type === 'resource_link');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const read = await send(example, { body: req('resources/read', { uri: link.uri }) });
      expect(read.json.result.contents[0].uri).toBe(link.uri);
      expect(Buffer.byteLength(read.json.result.contents[0].text)).toBe(link.size);
    }
  });
});

describe('Utilities (rules 24–25)', () => {
  it.each([
    'completion/complete',
    'logging/setLevel',
    'server/discover',
    'subscriptions/listen',
    'resources/subscribe',
  ])('25: %s (not offered here) is -32601', async (method) => {
    const res = await rpc(method, {});
    expect(res.status).toBe(200);
    expect(res.json.error.code).toBe(-32601);
  });
});
