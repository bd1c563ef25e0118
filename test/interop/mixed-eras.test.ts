import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpFunction } from '../support/local.ts';
import type { RunningServer } from '@mcp-lambda/dev/testing';
import { TEMPLATE_TOOL_NAMES } from './example-tools.ts';
import { finalResponse, recordingFetch } from './wire.ts';

// One endpoint, two eras at once: a handshake-era SDK 1.x client and a 2026-07-28 SDK 2.x client take turns and
// overlap on the same server, and each keeps getting answers in its own era (the body decides, per request).
let server: RunningServer;
const handshakeWire = recordingFetch();
const statelessWire = recordingFetch();
let handshake: Client1;
let stateless: Client2;

beforeAll(async () => {
  server = await serveMcpFunction();
  handshake = new Client1({ name: 'interop-handshake', version: '1.0.0' });
  stateless = new Client2(
    { name: 'interop-stateless', version: '2.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  // Connect in parallel too: the handshake and the discover probe cross on the wire.
  await Promise.all([
    handshake.connect(new Transport1(new URL(server.url), { fetch: handshakeWire.fetch })),
    stateless.connect(new Transport2(new URL(server.url), { fetch: statelessWire.fetch })),
  ]);
});

afterAll(async () => {
  await handshake?.close();
  await stateless?.close();
  await server?.close();
});

describe('a handshake and a stateless client on the same endpoint', () => {
  it('negotiate different eras', () => {
    // The SDK's own name for the 2026-07-28 era.
    expect(stateless.getProtocolEra()).toBe('modern');
    expect(stateless.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(finalResponse(handshakeWire.calls('initialize')[0]!)?.result.protocolVersion).toBe('2025-11-25');
  });

  it('get correct answers when their calls alternate', async () => {
    for (let i = 1; i <= 5; i++) {
      const a = await handshake.callTool({ name: 'safe_divide', arguments: { a: i * 10, b: 2 } });
      const b = await stateless.callTool({ name: 'safe_divide', arguments: { a: i * 10, b: 5 } });
      expect(a.content).toEqual([{ type: 'text', text: String(i * 5) }]);
      expect(b.content).toEqual([{ type: 'text', text: String(i * 2) }]);
    }
  });

  it('get correct answers when their calls overlap', async () => {
    const rounds = Array.from({ length: 8 }, (_, i) =>
      Promise.all([
        handshake.callTool({ name: 'text_stats', arguments: { text: 'a '.repeat(i + 1) } }),
        stateless.callTool({ name: 'text_stats', arguments: { text: 'b '.repeat(i + 2) } }),
        handshake.callTool({ name: 'safe_divide', arguments: { a: i, b: 0 } }),
        stateless.listTools(),
      ]),
    );
    const results = await Promise.all(rounds);
    results.forEach(([handshakeStats, statelessStats, handshakeError, statelessList], i) => {
      expect(handshakeStats.structuredContent).toMatchObject({
        words: i + 1,
        topWords: [{ word: 'a', count: i + 1 }],
      });
      expect(statelessStats.structuredContent).toMatchObject({
        words: i + 2,
        topWords: [{ word: 'b', count: i + 2 }],
      });
      expect(handshakeError.isError).toBe(true);
      expect(statelessList.tools).toHaveLength(TEMPLATE_TOOL_NAMES.length);
    });
  });

  it('each get the resource-not-found code of their own era at the same moment', async () => {
    const [handshakeError, statelessError] = await Promise.all([
      handshake.readResource({ uri: 'docs://server/gone' }).then(
        () => undefined,
        (e: unknown) => e,
      ),
      stateless.readResource({ uri: 'docs://server/gone' }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    ]);
    expect((handshakeError as { code: number }).code).toBe(-32002);
    const miss = statelessWire.calls('resources/read').at(-1)!;
    expect(finalResponse(miss)?.error.code).toBe(-32602);
    expect((statelessError as { data: unknown }).data).toEqual({ uri: 'docs://server/gone' });
  });

  it('never saw the other era on the wire', () => {
    for (const exchange of handshakeWire.exchanges) {
      expect(exchange.request?.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBeUndefined();
      expect(finalResponse(exchange)?.result ?? {}).not.toHaveProperty('resultType');
    }
    const statelessCalls = statelessWire.exchanges.filter((e) => e.request?.method === 'tools/call');
    expect(statelessCalls.length).toBe(13);
    for (const exchange of statelessWire.exchanges) {
      expect(exchange.request?.method).not.toBe('initialize');
      const result = finalResponse(exchange)?.result;
      if (result) expect(result.resultType).toBe('complete');
    }
  });
});
