import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpFunction } from '../support/local.ts';
import type { RunningServer } from '@mcp-lambda/dev/testing';
import { exampleToolCalls, expectStructuredWhole, TEMPLATE_TOOL_NAMES } from './example-tools.ts';
import { finalResponse, recordingFetch } from './wire.ts';

// The official TypeScript SDK 1.x client (handshake era only) against the real MCP function, over HTTP on
// loopback through the same Lambda adapter as production.
let server: RunningServer;
let client: Client;
let transport: StreamableHTTPClientTransport;
const wire = recordingFetch();

beforeAll(async () => {
  server = await serveMcpFunction();
  client = new Client({ name: 'interop-sdk1', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: wire.fetch });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('SDK 1.x client (handshake era)', () => {
  it('completes the initialize handshake on the newest revision both sides speak', () => {
    const [initialize] = wire.calls('initialize');
    expect(finalResponse(initialize!)?.result.protocolVersion).toBe('2025-11-25');
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()).toMatchObject({
      name: 'mcp-lambda-template',
      title: 'MCP on AWS Lambda',
    });
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: {},
      extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
    });
    expect(client.getInstructions()).toMatch(/resource_link/);
    expect(wire.calls('notifications/initialized')[0]?.status).toBe(202);
  });

  it('lists the template tools in definition order', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TEMPLATE_TOOL_NAMES);
    expect(tools.find((t) => t.name === 'text_stats')?.outputSchema).toMatchObject({ type: 'object' });
  });

  it.each(exampleToolCalls)('calls a tool: %s', async (_description, name, args, check) => {
    const result = await client.callTool({ name, arguments: args });
    check(result);
    expectStructuredWhole(result);
  });

  it('answers a protocol ping with an empty result', async () => {
    expect(await client.ping()).toEqual({});
  });

  it('refuses an unknown tool with JSON-RPC -32602', async () => {
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it('lists and reads the server resource', async () => {
    const { resources } = await client.listResources();
    expect(resources).toContainEqual({
      uri: 'docs://server/about',
      name: 'about',
      title: 'About this server',
      mimeType: 'text/markdown',
    });
    const read = await client.readResource({ uri: 'docs://server/about' });
    expect(read.contents).toHaveLength(1);
    expect(read.contents[0]).toMatchObject({ uri: 'docs://server/about', mimeType: 'text/markdown' });
    expect((read.contents[0] as { text: string }).text).toMatch(/^# mcp-lambda-template/);
  });

  it('refuses an unknown resource with -32002 and the URI in data', async () => {
    const error = (await client
      .readResource({ uri: 'docs://server/missing' })
      .catch((e: unknown) => e)) as McpError;
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ uri: 'docs://server/missing' });
  });

  it('was served statelessly: no session id, the negotiated version header, and handshake-era results', () => {
    expect(wire.exchanges.length).toBeGreaterThan(10);
    // The client tries to open the standalone GET stream once; a stateless server has none to offer.
    const gets = wire.exchanges.filter((e) => e.method === 'GET');
    expect(gets.map((e) => [e.status, e.responseHeaders.allow])).toEqual([[405, 'POST']]);
    for (const exchange of wire.exchanges) {
      expect(exchange.responseHeaders['mcp-session-id']).toBeUndefined();
      const result = finalResponse(exchange)?.result;
      if (result) expect(result).not.toHaveProperty('resultType');
    }
    const afterHandshake = wire.exchanges.filter((e) => e.request && e.request.method !== 'initialize');
    for (const exchange of afterHandshake)
      expect(exchange.requestHeaders['mcp-protocol-version']).toBe('2025-11-25');
  });
});
