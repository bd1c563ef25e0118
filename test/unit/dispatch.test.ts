import { describe, expect, it } from 'vitest';
import { createMcpServer, defineTool } from '../../src/index.ts';
import { modernHeaders, modernMeta, send } from '../support/rpc.ts';

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
  it('legacy initialize echoes a supported version', async () => {
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

  it('modern tools/call carries resultType and serverInfo', async () => {
    const res = await send(server, {
      headers: modernHeaders('tools/call', 'ping'),
      body: { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'ping', _meta: modernMeta() } },
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
