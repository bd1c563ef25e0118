import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePrompt, defineTool, staticResources, type ToolDefinition } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/versions.ts';
import { serveServer, type RunningServer, statelessHeaders, statelessMeta } from '@mcp-lambda/dev/testing';

/**
 * The rules of the 2026-07-28 revision (versioning, `server/discover`, per-request `_meta`, routing headers, cache
 * hints) over real HTTP: exact headers and bodies in, exact
 * status, headers and JSON-RPC answers out, on the same endpoint that serves the handshake era.
 */

const V = '2026-07-28';
const SERVER_INFO = { name: 'stateless-fixture', version: '2.0.0' };
const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

const routeSchema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    opts: { type: 'object', properties: { count: { type: 'integer', 'x-mcp-header': 'Count' } } },
    query: { type: 'string' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

const fixtureTools = [
  defineTool({
    name: 'echo_context',
    description: 'Reports the era and protocol version the request was served in.',
    handler: (_args, ctx) => `${ctx.era} ${ctx.protocolVersion}`,
  }),
  defineTool({
    name: 'route',
    description: 'Runs a query in a region; the region is mirrored into a header for gateways.',
    inputSchema: routeSchema,
    handler: ({ region, query }) => `${query} in ${region ?? 'default'}`,
  }),
  defineTool({ name: 'tool_a', description: 'Filler for pagination.', handler: () => 'a' }),
];

const OPTIONS = {
  info: SERVER_INFO,
  instructions: 'Stateless fixture.',
  listCache: { ttlMs: 60_000, cacheScope: 'public' as const },
  tools: fixtureTools,
  resources: [
    staticResources(
      [{ uri: 'docs://stateless/readme', name: 'readme', mimeType: 'text/plain', read: () => 'hello' }],
      [{ uriTemplate: 'docs://stateless/items/{id}', name: 'item', read: ({ id }) => `item ${id}` }],
    ),
  ],
  prompts: [
    definePrompt({ name: 'greet', description: 'Says hello.', handler: () => 'Hello!' }),
    definePrompt({
      name: 'grüße',
      description: 'A name that needs Base64 in a header.',
      handler: () => 'Hallo!',
    }),
  ],
};

let server: RunningServer;
beforeAll(async () => {
  server = await serveServer(OPTIONS);
});
afterAll(() => server?.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
}

const BASE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(body: unknown, headers: Record<string, string | undefined> = {}): Promise<Answer> {
  const all = Object.fromEntries(
    Object.entries({ ...BASE, ...headers }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const res = await fetch(server.url, { method: 'POST', headers: all, body: JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body: text, json };
}

/** A well-formed stateless request: envelope in `_meta`, headers mirroring the body. */
function stateless(method: string, params: Record<string, unknown> = {}, id: string | number = 1) {
  const name = (params.name ?? params.uri) as string | undefined;
  const needsName = ['tools/call', 'resources/read', 'prompts/get'].includes(method);
  return {
    body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: statelessMeta() } },
    headers: statelessHeaders(method, needsName ? name : undefined) as Record<string, string | undefined>,
  };
}
const send = (
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
) => {
  const m = stateless(method, params);
  return post(m.body, { ...m.headers, ...headers });
};

/** Parses an SSE body into its JSON-RPC messages. */
function events(body: string): any[] {
  return body
    .split('\n\n')
    .filter(Boolean)
    .map((event) => {
      const lines = event.split('\n');
      expect(lines[0]).toBe('event: message');
      return JSON.parse(lines[1]!.replace(/^data: /, ''));
    });
}

function expectError(res: Answer, status: number, code: number, id: string | number | null = 1) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.json.jsonrpc).toBe('2.0');
  expect(res.json.id).toBe(id);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  expect(res.json.result).toBeUndefined();
}

describe('era detection, per request (the body decides; a header never switches the era)', () => {
  it('1: a request with a stateless _meta claim is served statelessly in 2026-07-28', async () => {
    const res = await send('tools/call', { name: 'echo_context' });
    expect(res.status).toBe(200);
    expect(res.json.result.content).toEqual([{ type: 'text', text: `stateless ${V}` }]);
    expect(res.json.result.resultType).toBe('complete');
  });

  it('1: a stateless claim is never switched by a handshake header: the header mismatch is refused', async () => {
    const res = await send('tools/list', {}, { 'mcp-protocol-version': '2025-06-18' });
    expectError(res, 400, -32020);
  });

  it('2: initialize without a claim keeps its handshake semantics', async () => {
    const res = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.protocolVersion).toBe('2025-11-25');
    expect(res.json.result.resultType).toBeUndefined();
  });

  it('3: no claim but an MCP-Protocol-Version header of 2026-07-28 is 400 -32602 naming the missing keys', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, statelessHeaders('tools/list'));
    expectError(res, 400, -32602);
    expect(res.json.error.data.envelope.missing).toEqual([
      'io.modelcontextprotocol/protocolVersion',
      'io.modelcontextprotocol/clientCapabilities',
    ]);
  });

  it('4: no claim and no header is served as the handshake era, 2025-03-26', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo_context' } });
    expect(res.json.result).toEqual({ content: [{ type: 'text', text: 'handshake 2025-03-26' }] });
  });

  it('a handshake request and a stateless request hit the same endpoint back to back', async () => {
    const handshake = await post(
      { jsonrpc: '2.0', id: 'l', method: 'tools/call', params: { name: 'echo_context' } },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    const m = stateless('tools/call', { name: 'echo_context' }, 'm');
    const statelessRes = await post(m.body, m.headers);
    expect(handshake.json).toEqual({
      jsonrpc: '2.0',
      id: 'l',
      result: { content: [{ type: 'text', text: 'handshake 2025-06-18' }] },
    });
    expect(statelessRes.json).toEqual({
      jsonrpc: '2.0',
      id: 'm',
      result: {
        content: [{ type: 'text', text: `stateless ${V}` }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      },
    });
  });
});

describe('the _meta envelope', () => {
  it('a missing clientCapabilities is 400 -32602', async () => {
    const { body, headers } = stateless('tools/list');
    delete (body.params._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'];
    expectError(await post(body, headers), 400, -32602);
  });

  it('an unsupported version is 400 -32022 with data.supported and data.requested', async () => {
    const { body, headers } = stateless('tools/list');
    body.params._meta = statelessMeta('2099-01-01');
    const res = await post(body, { ...headers, 'mcp-protocol-version': '2099-01-01' });
    expectError(res, 400, -32022);
    expect(res.json.error.data).toEqual({
      supported: [...SUPPORTED_PROTOCOL_VERSIONS],
      requested: '2099-01-01',
    });
  });
});

describe('standard request headers → 400 -32020', () => {
  it.each([
    ['a missing MCP-Protocol-Version', 'tools/list', {}, { 'mcp-protocol-version': undefined }],
    ['a mismatched MCP-Protocol-Version', 'tools/list', {}, { 'mcp-protocol-version': '2025-11-25' }],
    ['a missing Mcp-Method', 'tools/list', {}, { 'mcp-method': undefined }],
    ['a mismatched Mcp-Method', 'tools/list', {}, { 'mcp-method': 'prompts/list' }],
    [
      'an Mcp-Method in other letter case (values are case-sensitive)',
      'tools/list',
      {},
      { 'mcp-method': 'TOOLS/LIST' },
    ],
    ['a missing Mcp-Name on tools/call', 'tools/call', { name: 'echo_context' }, { 'mcp-name': undefined }],
    ['a mismatched Mcp-Name on tools/call', 'tools/call', { name: 'echo_context' }, { 'mcp-name': 'route' }],
    [
      'a malformed Base64 Mcp-Name',
      'tools/call',
      { name: 'echo_context' },
      { 'mcp-name': '=?base64?ZWNobw?=' },
    ],
    [
      'a raw non-ASCII Mcp-Name, even one whose bytes read back equal',
      'prompts/get',
      { name: 'grüße' },
      { 'mcp-name': 'grüße' },
    ],
    [
      'a missing Mcp-Name on resources/read',
      'resources/read',
      { uri: 'docs://stateless/readme' },
      { 'mcp-name': undefined },
    ],
    [
      'a mismatched Mcp-Name on resources/read',
      'resources/read',
      { uri: 'docs://stateless/readme' },
      { 'mcp-name': 'docs://x' },
    ],
    ['a missing Mcp-Name on prompts/get', 'prompts/get', { name: 'greet' }, { 'mcp-name': undefined }],
  ])('%s', async (_name, method, params, headers) => {
    expectError(await send(method, params, headers), 400, -32020);
  });

  it('a Base64-wrapped non-ASCII Mcp-Name is decoded before comparing', async () => {
    const res = await send('prompts/get', { name: 'grüße' }, { 'mcp-name': b64('grüße') });
    expect(res.status).toBe(200);
    expect(res.json.result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hallo!' } }]);
  });

  it('a Base64-wrapped ASCII Mcp-Name is decoded too', async () => {
    const res = await send('tools/call', { name: 'echo_context' }, { 'mcp-name': b64('echo_context') });
    expect(res.status).toBe(200);
  });

  it('header names are case-insensitive on the wire', async () => {
    const { body } = stateless('tools/call', { name: 'echo_context' });
    const bytes = JSON.stringify(body);
    const res = await new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        server.url,
        {
          method: 'POST',
          headers: {
            'CONTENT-TYPE': 'application/json',
            ACCEPT: 'application/json, text/event-stream',
            'mcp-PROTOCOL-version': V,
            'MCP-METHOD': 'tools/call',
            'mCp-NaMe': 'echo_context',
          },
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: r.statusCode ?? 0,
              headers: r.headers as Record<string, string>,
              body: text,
              json: JSON.parse(text),
            });
          });
        },
      );
      req.on('error', reject);
      req.end(bytes);
    });
    expect(res.status).toBe(200);
    expect(res.json.result.content[0].text).toBe(`stateless ${V}`);
  });
});

describe('methods', () => {
  it.each([
    'no/such/method',
    'initialize',
    'ping',
    'logging/setLevel',
    'notifications/initialized',
    'completion/complete',
    'constructor',
    '__proto__',
    'toString',
  ])('%s is unknown in 2026-07-28: HTTP 404 with -32601', async (method) => {
    expectError(await send(method), 404, -32601);
  });

  it('a 404 is plain JSON even when the client accepts only an event stream', async () => {
    const res = await send('no/such/method', {}, { accept: 'text/event-stream' });
    expectError(res, 404, -32601);
  });

  it('an SSE-only Accept gets an event stream for a successful answer', async () => {
    const res = await send('tools/list', {}, { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(events(res.body)[0].result.tools.length).toBeGreaterThan(0);
  });

  it('server/discover answers versions, capabilities, instructions, serverInfo and a cache hint', async () => {
    const res = await send('server/discover');
    expect(res.status).toBe(200);
    expect(res.json.result).toEqual({
      resultType: 'complete',
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: 'Stateless fixture.',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    expect(res.json.result.supportedVersions).toContain(V);
  });

  it.each([
    ['server/discover', {}],
    ['tools/list', {}],
    ['prompts/list', {}],
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['resources/read', { uri: 'docs://stateless/readme' }],
    ['resources/read', { uri: 'docs://stateless/items/7' }],
  ])(
    '%s %j is cacheable: integer ttlMs ≥ 0, a cacheScope, resultType and serverInfo',
    async (method, params) => {
      const res = await send(method, params);
      expect(res.status).toBe(200);
      const { result } = res.json;
      expect(Number.isInteger(result.ttlMs)).toBe(true);
      expect(result.ttlMs).toBeGreaterThanOrEqual(0);
      expect(['public', 'private']).toContain(result.cacheScope);
      expect(result.resultType).toBe('complete');
      expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual(SERVER_INFO);
    },
  );

  it('the same cacheable methods carry no cache hint in the handshake era', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.json.result.ttlMs).toBeUndefined();
    expect(res.json.result.cacheScope).toBeUndefined();
    expect(res.json.result.resultType).toBeUndefined();
  });

  it('tools/call results carry resultType and serverInfo but no cache hint', async () => {
    const { result } = (await send('tools/call', { name: 'echo_context' })).json;
    expect(result.resultType).toBe('complete');
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toEqual(SERVER_INFO);
    expect(result).not.toHaveProperty('ttlMs');
    expect(result).not.toHaveProperty('cacheScope');
  });

  it('tools/list is deterministic: the same order on every call', async () => {
    const first = (await send('tools/list')).json.result.tools.map((t: { name: string }) => t.name);
    const second = (await send('tools/list')).json.result.tools.map((t: { name: string }) => t.name);
    expect(first).toEqual(['echo_context', 'route', 'tool_a']);
    expect(second).toEqual(first);
  });

  it.each(['docs://stateless/missing', 'file:///etc/passwd'])(
    'resources/read of %s is -32602 with data.uri, never -32002, never empty contents',
    async (uri) => {
      const res = await send('resources/read', { uri });
      expectError(res, 200, -32602);
      expect(res.json.error.data).toEqual({ uri });
      expect(res.body).not.toContain('-32002');
    },
  );

  it('an unknown tool is -32602 in a 200', async () => {
    expectError(await send('tools/call', { name: 'nope' }, { 'mcp-name': 'nope' }), 200, -32602);
  });
});

describe('subscriptions/listen (nothing to send: acknowledge an empty filter, then close)', () => {
  it.each([
    ['an empty filter', {}],
    [
      'a filter asking for everything',
      {
        toolsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ['docs://stateless/readme'],
      },
    ],
  ])('with %s: an SSE stream of the acknowledgement, then the result', async (_name, notifications) => {
    const res = await send('subscriptions/listen', { notifications });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['x-accel-buffering']).toBe('no');
    const [ack, final, ...rest] = events(res.body);
    expect(rest).toEqual([]);
    expect(ack).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
    });
    expect(final).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'complete',
        _meta: {
          'io.modelcontextprotocol/subscriptionId': 1,
          'io.modelcontextprotocol/serverInfo': SERVER_INFO,
        },
      },
    });
  });

  it('a missing filter is -32602', async () => {
    expectError(await send('subscriptions/listen', {}), 200, -32602);
  });
});

describe('x-mcp-header tool parameters (Mcp-Param-*)', () => {
  const route = (args: Record<string, unknown>, headers: Record<string, string | undefined>) =>
    send('tools/call', { name: 'route', arguments: args }, headers);

  it.each([
    ['a missing Mcp-Param header', { region: 'eu-west-1', query: 'q' }, {}],
    [
      'a mismatched Mcp-Param header',
      { region: 'eu-west-1', query: 'q' },
      { 'mcp-param-region': 'us-east-1' },
    ],
    ['a nested integer mismatch', { query: 'q', opts: { count: 3 } }, { 'mcp-param-count': '4' }],
    ['a header for an argument that is absent', { query: 'q' }, { 'mcp-param-region': 'eu-west-1' }],
    ['a malformed Base64 value', { region: 'eu', query: 'q' }, { 'mcp-param-region': '=?base64?ZXU?=' }],
  ])('%s is 400 -32020', async (_name, args, headers) => {
    const res = await route(args, headers);
    expectError(res, 400, -32020);
    expect(res.json.error.data.header).toMatch(/^Mcp-Param-/);
  });

  it.each([
    [
      'a matching header',
      { region: 'eu-west-1', query: 'q' },
      { 'mcp-param-region': 'eu-west-1' },
      'q in eu-west-1',
    ],
    [
      'a Base64 header for a non-ASCII value',
      { region: 'Zürich', query: 'q' },
      { 'mcp-param-region': b64('Zürich') },
      'q in Zürich',
    ],
    ['a nested integer', { query: 'q', opts: { count: 3 } }, { 'mcp-param-count': '3' }, 'q in default'],
    ['no header for an absent argument', { query: 'q' }, {}, 'q in default'],
    ['no header for a null argument (the schema then decides)', { region: null, query: 'q' }, {}, undefined],
    [
      'header names in other letter case',
      { region: 'eu', query: 'q' },
      { 'MCP-PARAM-REGION': 'eu' },
      'q in eu',
    ],
  ])('%s is served', async (_name, args, headers, text) => {
    const res = await route(args, headers);
    expect(res.status).toBe(200);
    if (text) expect(res.json.result.content).toEqual([{ type: 'text', text }]);
    else expect(res.json.result.isError).toBe(true);
  });

  it('a handshake request is not held to the Mcp-Param rules', async () => {
    const res = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'route', arguments: { region: 'eu', query: 'q' } },
    });
    expect(res.json.result.content).toEqual([{ type: 'text', text: 'q in eu' }]);
  });

  it.each([
    ['a number parameter', { n: { type: 'number', 'x-mcp-header': 'N' } }],
    [
      'a parameter under items',
      { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
    ],
    [
      'duplicate names (case-insensitive)',
      { a: { type: 'string', 'x-mcp-header': 'Zone' }, b: { type: 'string', 'x-mcp-header': 'ZONE' } },
    ],
    ['a name that is not an HTTP token', { a: { type: 'string', 'x-mcp-header': 'Bad Name' } }],
  ])('a tool declaring %s is refused when the server is created', (_name, properties) => {
    const tool: ToolDefinition = {
      name: 'bad_decl',
      description: 'Invalid x-mcp-header.',
      inputSchema: { type: 'object', properties },
      handler: () => 'never',
    };
    expect(() => createMcpServer({ info: SERVER_INFO, tools: [tool] })).toThrow(
      /Tool "bad_decl": x-mcp-header/,
    );
  });
});

describe('notifications and the rest of the HTTP rules', () => {
  it.each([
    [
      'with the envelope and no headers',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: statelessMeta() } },
      {},
    ],
    [
      'with only the version header (notifications carry no envelope)',
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { 'mcp-protocol-version': V },
    ],
    [
      'with matching headers',
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { 'mcp-protocol-version': V, 'mcp-method': 'notifications/roots/list_changed' },
    ],
  ])('a notification %s is 202 with an empty body', async (_name, body, headers) => {
    const res = await post(body, headers);
    expect(res.status).toBe(202);
    expect(res.body).toBe('');
  });

  it('a notification whose Mcp-Method disagrees is 400 -32020', async () => {
    const res = await post(
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { 'mcp-protocol-version': V, 'mcp-method': 'notifications/other' },
    );
    expectError(res, 400, -32020, null);
  });

  it.each(['GET', 'DELETE'])('%s is 405 with Allow: POST', async (method) => {
    const res = await fetch(server.url, {
      method,
      headers: { ...statelessHeaders('tools/list'), 'mcp-session-id': 's' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    await res.body?.cancel();
  });

  it('Mcp-Session-Id and Last-Event-ID are ignored, and no session is minted', async () => {
    const res = await send('tools/list', {}, { 'mcp-session-id': 'abc', 'last-event-id': '5' });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });

  it('a foreign Origin is 403 here too', async () => {
    const res = await send('tools/list', {}, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});
