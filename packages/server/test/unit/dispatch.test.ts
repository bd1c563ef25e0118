import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { silentLogger } from '../../src/log.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { BASE_HEADERS, statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

const server = createMcpServer({
  info: { name: 'unit', version: '1.0.0' },
  tools: [
    defineTool({ name: 'ping', description: 'pong', handler: () => 'pong' }),
    defineTool({
      name: 'keep',
      description: 'stores a payload explicitly',
      handler: async (_args, ctx) => ctx.store({ data: 'x', mimeType: 'text/plain' }),
    }),
  ],
});

describe('dispatch in both eras', () => {
  it('handshake initialize echoes a supported version', async () => {
    const res = await send(server, {
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.result.protocolVersion).toBe('2025-06-18');
    expect(res.json.result.capabilities).toEqual({ tools: {} });
  });

  it('stateless tools/call carries resultType and serverInfo', async () => {
    const res = await send(server, {
      headers: statelessHeaders('tools/call', 'ping'),
      body: {
        jsonrpc: '2.0',
        id: 'a',
        method: 'tools/call',
        params: { name: 'ping', _meta: statelessMeta() },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'unit', version: '1.0.0' } },
    });
  });

  it('an explicit store without configured storage is an isError result that says why', async () => {
    const res = await send(server, {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'keep' } },
    });
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/no storage for outputs/);
  });
});

describe('time kept back from the invocation deadline', () => {
  const hang = defineTool({
    name: 'hang',
    description: 'never ends',
    handler: () => new Promise(() => undefined),
  });
  const budgetOf = async (withOffloader: boolean) => {
    const target = createMcpServer({
      info: { name: 'budget', version: '1.0.0' },
      tools: [hang],
      ...(withOffloader
        ? {
            offloader: createOffloader({
              storage: memoryStorage(),
              prefix: 'outputs/',
              thresholdBytes: 1024,
              ttlDays: 1,
            }),
          }
        : {}),
    });
    const res = await target.handle(
      {
        method: 'POST',
        path: '/mcp',
        headers: { ...BASE_HEADERS },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang' } }),
      },
      { requestId: 'r', log: silentLogger, deadline: Date.now() + 5_300 },
    );
    const text: string = JSON.parse(res.body).result.content[0].text;
    return Number(/time budget of (\d+) ms/.exec(text)?.[1]);
  };

  it('keeps 5 s back when large outputs may still have to be stored, 2 s otherwise', async () => {
    const [offloading, plain] = await Promise.all([budgetOf(true), budgetOf(false)]);
    expect(offloading).toBeGreaterThan(200);
    expect(offloading).toBeLessThanOrEqual(300);
    expect(plain).toBeGreaterThan(3_200);
    expect(plain).toBeLessThanOrEqual(3_300);
  });
});
