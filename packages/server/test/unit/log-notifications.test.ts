import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

const server = createMcpServer({
  info: { name: 'unit', version: '1.0.0' },
  logging: true,
  tools: [
    defineTool({
      name: 'chatty',
      description: 'Logs at three levels',
      handler: (_args, ctx) => {
        ctx.notify('debug', 'd');
        ctx.notify('info', 'i');
        ctx.notify('error', 'e');
        return 'done';
      },
    }),
  ],
});

/** The log messages of one SSE response, in order. */
function logged(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)))
    .filter((m) => m.method === 'notifications/message')
    .map((m) => m.params.data);
}

async function statelessCall(logLevel?: string) {
  const _meta = { ...statelessMeta(), ...(logLevel ? { 'io.modelcontextprotocol/logLevel': logLevel } : {}) };
  return send(server, {
    headers: statelessHeaders('tools/call', 'chatty'),
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chatty', _meta } },
  });
}

describe('log notifications on a per-request stream', () => {
  it.each([
    // 2026-07-28: "no notifications/message for requests that did not set _meta logLevel".
    [undefined, []],
    ['debug', ['d', 'i', 'e']],
    ['info', ['i', 'e']],
    ['error', ['e']],
    ['emergency', []],
  ])('a 2026-07-28 request with logLevel %s receives %j', async (level, expected) => {
    const res = await statelessCall(level);
    expect(res.status).toBe(200);
    if (expected.length === 0) {
      expect(res.headers['content-type']).toBe('application/json');
    } else {
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(logged(res.body)).toEqual(expected);
    }
  });

  it('a handshake-era request receives every level, since logging/setLevel cannot be remembered', async () => {
    const res = await send(server, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'chatty' } },
    });
    expect(logged(res.body)).toEqual(['d', 'i', 'e']);
  });
});
