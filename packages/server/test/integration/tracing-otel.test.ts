import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, ToolError } from '../../src/index.ts';
import { createMcpFunction } from '../../src/faces/lambda.ts';
import {
  BASE_HEADERS,
  deadEndpoint,
  serveHandler,
  silentEndpoint,
  startOtlpReceiver,
  startTestS3,
  statelessHeaders,
  statelessMeta,
  type OtlpReceiver,
  type RunningServer,
  type TestS3,
} from '@mcp-lambda/dev/testing';

/**
 * OpenTelemetry end to end (MCP_TRACING=on): the MCP function built from the environment as Lambda builds it, its
 * spans sent over OTLP/HTTP to a receiver started here, in protobuf and in JSON. A client's trace context in
 * `params._meta` is continued in both eras; the spans follow the MCP conventions; a stored output's S3 writes are
 * child spans; nothing secret is recorded; and every span is sent before the invocation returns.
 */

/** An argument no attribute may hold. */
const SECRET_ARGUMENT = 'argument-that-must-not-be-recorded';
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const traceparent = (span = CLIENT_SPAN) => `00-${CLIENT_TRACE}-${span}-01`;

const tools = [
  defineTool({
    name: 'large',
    description: 'an output too large to return inline',
    inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
    handler: ({ note }) => `${String(note)}\n${'row\n'.repeat(3_000)}`,
  }),
  defineTool({
    name: 'confirm',
    description: 'asks the person first',
    handler: async (_args, ctx) =>
      (
        await ctx.elicit({
          message: 'Go?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        })
      ).action,
  }),
  defineTool({
    name: 'refuse',
    description: 'fails as tools do',
    handler: () => {
      throw new ToolError('not today');
    },
  }),
];

let s3: TestS3;
let collector: { url: string; close(): Promise<void> } | undefined;

/** A collector on loopback that answers every export with `status` and `body`. */
async function failingCollector(status: number, body: string) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
const receivers: Record<string, OtlpReceiver> = {};
const servers: Record<string, RunningServer> = {};

beforeAll(async () => {
  s3 = await startTestS3();
  // The AWS SDK reads its credentials from the process's environment, as on Lambda.
  Object.assign(process.env, s3.env());
  for (const protocol of ['http/protobuf', 'http/json']) {
    const receiver = await startOtlpReceiver();
    receivers[protocol] = receiver;
    const handler = await createMcpFunction({
      tools,
      env: {
        ...s3.env(),
        OFFLOAD_THRESHOLD_BYTES: '1024',
        MCP_SERVER_NAME: 'otel-under-test',
        MCP_SESSION_SECRET: 'otel-test-session-key-00000000000000000',
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        MCP_TRACING: 'on',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
      },
    });
    servers[protocol] = await serveHandler(handler);
  }
});

afterAll(async () => {
  for (const server of Object.values(servers)) await server.close();
  for (const receiver of Object.values(receivers)) await receiver.close();
  await s3?.close();
});

/** A request in either era, with `_meta` extended by `meta`; answers the response and its session header. */
async function call(
  protocol: string,
  era: 'stateless' | 'handshake',
  method: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const stateless = era === 'stateless';
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method,
    params: { ...params, _meta: { ...(stateless ? statelessMeta() : {}), ...meta } },
  };
  const res = await fetch(servers[protocol]!.url, {
    method: 'POST',
    headers: {
      ...BASE_HEADERS,
      ...(stateless ? statelessHeaders(method, params.name as string | undefined) : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, session: res.headers.get('mcp-session-id'), json: (await res.json()) as any };
}

/** JSON.stringify's replacer for received spans (their times are bigints). */
const text = (_key: string, value: unknown) => (typeof value === 'bigint' ? String(value) : value);

/** The MCP function tracing to `endpoint` (each export limited to `exportTimeoutMs`), served on loopback. */
async function serveTraced(endpoint: string, exportTimeoutMs: string, invocationTimeoutMs?: number) {
  const handler = await createMcpFunction({
    tools,
    env: {
      ...s3.env(),
      MCP_SERVER_NAME: 'otel-under-test',
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      MCP_TRACING: 'on',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_TIMEOUT: exportTimeoutMs,
    },
  });
  return serveHandler(handler, invocationTimeoutMs ? { timeoutMs: invocationTimeoutMs } : {});
}

/** A stateless `tools/call` of `refuse`, the tool that fails as tools do. */
const callRefuse = (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { ...BASE_HEADERS, ...statelessHeaders('tools/call', 'refuse') },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'refuse', _meta: statelessMeta() },
    }),
  });

describe('a collector that fails', () => {
  it.each([
    ['refuses connections', async () => deadEndpoint()],
    ['answers 500', async () => (collector = await failingCollector(500, '')).url],
    [
      'answers more than it should',
      async () => (collector = await failingCollector(200, 'x'.repeat(200_000))).url,
    ],
  ])('costs the spans, never the request: it %s', async (_how, endpoint) => {
    const server = await serveTraced(await endpoint(), '2000');
    try {
      const res = await callRefuse(server.url);
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).result.content[0].text).toBe('not today');
    } finally {
      await server.close();
      await collector?.close();
      collector = undefined;
    }
  });
});

describe('a collector that never answers', () => {
  it('holds an answer about 2 s, not its export time limit nor the invocation deadline; a failed call too', async () => {
    const silent = await silentEndpoint();
    const server = await serveTraced(silent.url, '60000', 120_000);
    try {
      const started = performance.now();
      const res = await callRefuse(server.url);
      expect(((await res.json()) as any).result.isError).toBe(true);
      expect(silent.connections()).toBeGreaterThan(0);
      // The flush gives up at 2 s; the export's own limit (60 s) and the deadline (120 s) are far off.
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      await server.close();
      await silent.close();
    }
  });
});

describe.each(['http/protobuf', 'http/json'])('MCP_TRACING=on over OTLP %s', (protocol) => {
  it.each(['stateless', 'handshake'] as const)(
    'continues the client trace of a tools/call (%s era): a server span by the MCP conventions, the handler and the S3 writes under it, sent before the answer',
    async (era) => {
      const receiver = receivers[protocol]!;
      const clientSpan = era === 'stateless' ? 'a1a1a1a1a1a1a1a1' : 'b2b2b2b2b2b2b2b2';
      const res = await call(
        protocol,
        era,
        'tools/call',
        { name: 'large', arguments: { note: SECRET_ARGUMENT } },
        {
          traceparent: traceparent(clientSpan),
        },
      );
      expect(res.json.result.content.map((b: { type: string }) => b.type)).toContain('resource_link');
      // Sent before the invocation returned: no waiting here.
      const server = receiver.spans.find((s) => s.parentSpanId === clientSpan);
      expect(server).toMatchObject({
        name: 'tools/call large',
        kind: 2,
        traceId: CLIENT_TRACE,
        encoding: protocol === 'http/json' ? 'json' : 'protobuf',
        attributes: {
          'mcp.method.name': 'tools/call',
          'mcp.protocol.version': era === 'stateless' ? '2026-07-28' : '2025-11-25',
          'jsonrpc.request.id': '7',
          'gen_ai.tool.name': 'large',
          'gen_ai.operation.name': 'execute_tool',
          'network.transport': 'tcp',
        },
        status: { code: 0 },
        resource: { 'service.name': 'otel-under-test', 'deployment.environment.name': 'test' },
        scope: '@mcp-lambda/server',
      });
      const inTrace = receiver.spans.filter((s) => s.traceId === CLIENT_TRACE);
      const handler = inTrace.find(
        (s) => s.name === 'execute_tool large' && s.parentSpanId === server!.spanId,
      );
      expect(handler).toMatchObject({ kind: 1, attributes: { 'gen_ai.tool.name': 'large' } });
      const writes = inTrace.filter((s) => s.name.startsWith('S3.') && s.parentSpanId === server!.spanId);
      expect(writes.length).toBeGreaterThan(0);
      expect(writes[0]).toMatchObject({
        kind: 3,
        attributes: { 'rpc.system': 'aws-api', 'rpc.service': 'S3', 'aws.s3.bucket': expect.any(String) },
      });
      expect(server!.endTimeUnixNano).toBeGreaterThanOrEqual(handler!.endTimeUnixNano);
    },
  );

  it.each(['stateless', 'handshake'] as const)(
    'continues the trace of an HTTP traceparent header when _meta carries none (%s era); _meta wins over it',
    async (era) => {
      const receiver = receivers[protocol]!;
      const fromHeader = era === 'stateless' ? '1111222233334444' : '5555666677778888';
      await call(
        protocol,
        era,
        'tools/call',
        { name: 'refuse', arguments: {} },
        {},
        {
          traceparent: traceparent(fromHeader),
        },
      );
      expect(receiver.spans.find((s) => s.parentSpanId === fromHeader)).toMatchObject({
        name: 'tools/call refuse',
        kind: 2,
        traceId: CLIENT_TRACE,
      });
      const fromMeta = era === 'stateless' ? '9999aaaabbbbcccc' : 'ddddeeeeffff0000';
      const ignored = era === 'stateless' ? '0a0a0a0a0a0a0a0a' : '0b0b0b0b0b0b0b0b';
      await call(
        protocol,
        era,
        'tools/call',
        { name: 'refuse', arguments: {} },
        { traceparent: traceparent(fromMeta) },
        { traceparent: traceparent(ignored) },
      );
      expect(receiver.spans.find((s) => s.parentSpanId === fromMeta)?.name).toBe('tools/call refuse');
      expect(receiver.spans.some((s) => s.parentSpanId === ignored)).toBe(false);
    },
  );

  it("puts the call's trace context in the _meta of the question it asks (2026-07-28), never in its digest", async () => {
    const receiver = receivers[protocol]!;
    const clientSpan = '7777888899990000';
    const meta = {
      traceparent: traceparent(clientSpan),
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    const first = await call(protocol, 'stateless', 'tools/call', { name: 'confirm', arguments: {} }, meta);
    expect(first.json.result.resultType).toBe('input_required');
    const ask = first.json.result.inputRequests['ask-0'];
    expect(ask.params.message).toBe('Go?');
    const [, traceId, spanId] = (ask.params._meta.traceparent as string).split('-');
    expect(traceId).toBe(CLIENT_TRACE);
    expect(spanId).not.toBe(clientSpan);
    const server = receiver.spans.find((s) => s.parentSpanId === clientSpan);
    expect(server?.name).toBe('tools/call confirm');
    // The handler waits for an answer that comes in another round: its span ends with the round, not a failure.
    const executed = receiver.spans.find((s) => s.parentSpanId === server!.spanId);
    expect(executed).toMatchObject({ name: 'execute_tool confirm', status: { code: 0 } });
    // The answer, in another round with another trace context, matches the question: the digest has no _meta.
    const second = await call(
      protocol,
      'stateless',
      'tools/call',
      {
        name: 'confirm',
        arguments: {},
        inputResponses: { 'ask-0': { action: 'accept', content: { ok: true } } },
        requestState: first.json.result.requestState,
      },
      { ...meta, traceparent: traceparent('1212121212121212') },
    );
    expect(second.json.result.content[0].text).toBe('accept');
  });

  it('records an isError result as error.type tool_error, and an unknown method as _OTHER', async () => {
    const receiver = receivers[protocol]!;
    await call(
      protocol,
      'stateless',
      'tools/call',
      { name: 'refuse' },
      { traceparent: traceparent('c3c3c3c3c3c3c3c3') },
    );
    const [failed] = receiver.spans.filter((s) => s.parentSpanId === 'c3c3c3c3c3c3c3c3');
    expect(failed).toMatchObject({
      name: 'tools/call refuse',
      attributes: { 'error.type': 'tool_error' },
      status: { code: 2 },
    });
    await call(
      protocol,
      'handshake',
      'made/up-by-the-client',
      {},
      { traceparent: traceparent('d4d4d4d4d4d4d4d4') },
    );
    const [unknown] = receiver.spans.filter((s) => s.parentSpanId === 'd4d4d4d4d4d4d4d4');
    expect(unknown).toMatchObject({
      name: '_OTHER',
      attributes: {
        'mcp.method.name': '_OTHER',
        'error.type': '-32601',
        'rpc.response.status_code': '-32601',
      },
      status: { code: 2, message: 'Method not found' },
    });
    expect(JSON.stringify(unknown, text)).not.toContain('made/up');
  });

  it('starts a trace of its own without a client context, and names no tool or URI a client made up', async () => {
    const receiver = receivers[protocol]!;
    const before = receiver.spans.length;
    await call(protocol, 'stateless', 'tools/call', { name: 'no-such-tool-of-ours' });
    const [span] = receiver.spans.slice(before).filter((s) => s.kind === 2);
    expect(span).toMatchObject({ name: 'tools/call', parentSpanId: '' });
    expect(span!.traceId).not.toBe(CLIENT_TRACE);
    expect(JSON.stringify(span!.attributes)).not.toContain('no-such-tool');
    await call(protocol, 'handshake', 'resources/read', { uri: 'ui://made-up/by-the-client' });
    const [read] = receiver.spans.filter((s) => s.name === 'resources/read');
    expect(read!.attributes).not.toHaveProperty('mcp.resource.uri');
  });

  it('records a digest of the session id, never the id, nor an argument, a stored output URI or a token', async () => {
    const receiver = receivers[protocol]!;
    const init = await call(protocol, 'handshake', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test', version: '1.0.0' },
    });
    const session = init.session!;
    expect(session).toBeTruthy();
    const res = await call(
      protocol,
      'handshake',
      'tools/call',
      { name: 'large', arguments: { note: SECRET_ARGUMENT } },
      { traceparent: traceparent('e5e5e5e5e5e5e5e5') },
      { 'mcp-session-id': session, authorization: 'Bearer token-that-must-not-be-recorded' },
    );
    const uri = res.json.result.content.find((b: { type: string }) => b.type === 'resource_link')
      .uri as string;
    const [server] = receiver.spans.filter((s) => s.parentSpanId === 'e5e5e5e5e5e5e5e5');
    expect(server!.attributes['mcp.session.id']).toMatch(/^[0-9a-f]{32}$/);
    const everything = JSON.stringify(receiver.spans, text);
    for (const secret of [session, SECRET_ARGUMENT, uri, 'mcp-output://', 'token-that-must-not-be-recorded'])
      expect(everything).not.toContain(secret);
  });
});
