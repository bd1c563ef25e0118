import { Client, ResourceNotFoundError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpFunction } from '../support/local.ts';
import type { RunningServer } from '@mcp-lambda/dev/testing';
import { exampleToolCalls, expectStructuredWhole, TEMPLATE_TOOL_NAMES } from './example-tools.ts';
import { finalResponse, recordingFetch } from './wire.ts';

// The official TypeScript SDK 2.x client against the real MCP function, in each of its negotiation modes: the
// 2025 handshake ('legacy' in the SDK's words, its default), and 2026-07-28 found by probing ('auto') or required ({ pin }).
let server: RunningServer;

beforeAll(async () => {
  server = await serveMcpFunction();
});

afterAll(async () => {
  await server?.close();
});

type Mode = 'legacy' | 'auto' | { pin: '2026-07-28' };

// `era` is the SDK's name for the era it negotiated (`getProtocolEra()`): 'legacy' or 'modern' in its words.
const modes: { label: string; mode: Mode; era: 'legacy' | 'modern'; version: string }[] = [
  { label: 'handshake mode', mode: 'legacy', era: 'legacy', version: '2025-11-25' },
  { label: 'auto mode', mode: 'auto', era: 'modern', version: '2026-07-28' },
  { label: 'pinned to 2026-07-28', mode: { pin: '2026-07-28' }, era: 'modern', version: '2026-07-28' },
];

const code = (error: unknown) => (error as { code?: number }).code;

describe.each(modes)('SDK 2.x client, $label', ({ mode, era, version }) => {
  let client: Client;
  const wire = recordingFetch();

  beforeAll(async () => {
    client = new Client({ name: 'interop-sdk2', version: '2.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: wire.fetch }));
  });

  afterAll(async () => {
    await client?.close();
  });

  it(`connects in the ${era} era on ${version}`, () => {
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-lambda-template', version: '0.1.0' });
    // The tasks extension is advertised where it can be used: 2026-07-28 only (server/discover, not initialize).
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: {},
      extensions: {
        ...(era === 'modern' ? { 'io.modelcontextprotocol/tasks': {} } : {}),
        'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
      },
    });
    expect(client.getInstructions()).toMatch(/resource_link/);
  });

  if (era === 'modern') {
    it('was answered by server/discover, with no initialize handshake', () => {
      const [discover] = wire.calls('server/discover');
      expect(discover?.status).toBe(200);
      expect(finalResponse(discover!)?.result).toMatchObject({
        resultType: 'complete',
        supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']),
        capabilities: { tools: {}, resources: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mcp-lambda-template' } },
        ttlMs: expect.any(Number),
        cacheScope: 'public',
      });
      expect(wire.calls('initialize')).toEqual([]);
    });
  } else {
    it('completed the initialize handshake, with no server/discover probe', () => {
      expect(finalResponse(wire.calls('initialize')[0]!)?.result.protocolVersion).toBe('2025-11-25');
      expect(wire.calls('server/discover')).toEqual([]);
    });
  }

  it('lists the template tools in definition order', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TEMPLATE_TOOL_NAMES);
  });

  it.each(exampleToolCalls)('calls a tool: %s', async (_description, name, args, check) => {
    const result = await client.callTool({ name, arguments: args });
    check(result);
    expectStructuredWhole(result);
  });

  it('refuses an unknown tool with JSON-RPC -32602', async () => {
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(code(error)).toBe(-32602);
  });

  it('lists and reads the server resource', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('docs://server/about');
    const read = await client.readResource({ uri: 'docs://server/about' });
    expect(read.contents[0]).toMatchObject({ uri: 'docs://server/about', mimeType: 'text/markdown' });
    expect((read.contents[0] as { text: string }).text).toMatch(/^# mcp-lambda-template/);
  });

  it(`refuses an unknown resource with ${era === 'modern' ? '-32602' : '-32002'} on the wire and the URI in data`, async () => {
    const error = await client.readResource({ uri: 'docs://server/missing' }).catch((e: unknown) => e);
    // The client maps both codes to its ResourceNotFoundError (-32602) when data carries the URI.
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect((error as ResourceNotFoundError).uri).toBe('docs://server/missing');
    const miss = wire.calls('resources/read').find((e) => e.request?.params?.uri === 'docs://server/missing');
    expect(finalResponse(miss!)?.error).toMatchObject({
      code: era === 'modern' ? -32602 : -32002,
      data: { uri: 'docs://server/missing' },
    });
  });

  it(`sent and received ${era}-era messages only, without sessions`, () => {
    const posts = wire.exchanges.filter((e) => e.request !== undefined);
    expect(posts.length).toBeGreaterThan(10);
    for (const exchange of wire.exchanges) expect(exchange.responseHeaders['mcp-session-id']).toBeUndefined();
    for (const exchange of posts) {
      const { request } = exchange;
      const result = finalResponse(exchange)?.result;
      if (era === 'modern') {
        // 2026-07-28: every request carries the _meta envelope and mirrors method (and name) into headers;
        // every result says it is complete and names the server.
        expect(request?.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
        expect(exchange.requestHeaders['mcp-protocol-version']).toBe('2026-07-28');
        expect(exchange.requestHeaders['mcp-method']).toBe(request?.method);
        if (result) {
          expect(result.resultType).toBe('complete');
          expect(result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('mcp-lambda-template');
        }
      } else {
        expect(request?.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBeUndefined();
        if (result) expect(result).not.toHaveProperty('resultType');
      }
    }
    if (era === 'modern') {
      for (const exchange of wire.calls('tools/call'))
        expect(exchange.requestHeaders['mcp-name']).toBe(exchange.request?.params?.name);
    }
  });
});
