import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcpFunction, type RunningServer } from '../support/local.ts';
import { TEMPLATE_TOOL_NAMES } from './example-tools.ts';
import { finalResponse, recordingFetch } from './wire.ts';

// One endpoint, two eras at once: a handshake-era SDK 1.x client and a 2026-07-28 SDK 2.x client take turns and
// overlap on the same server, and each keeps getting answers in its own era (the body decides, per request).
let server: RunningServer;
const legacyWire = recordingFetch();
const modernWire = recordingFetch();
let legacy: Client1;
let modern: Client2;

beforeAll(async () => {
  server = await serveMcpFunction();
  legacy = new Client1({ name: 'interop-legacy', version: '1.0.0' });
  modern = new Client2(
    { name: 'interop-modern', version: '2.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  // Connect in parallel too: the handshake and the discover probe cross on the wire.
  await Promise.all([
    legacy.connect(new Transport1(new URL(server.url), { fetch: legacyWire.fetch })),
    modern.connect(new Transport2(new URL(server.url), { fetch: modernWire.fetch })),
  ]);
});

afterAll(async () => {
  await legacy?.close();
  await modern?.close();
  await server?.close();
});

describe('a legacy and a modern client on the same endpoint', () => {
  it('negotiate different eras', () => {
    expect(modern.getProtocolEra()).toBe('modern');
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(finalResponse(legacyWire.calls('initialize')[0]!)?.result.protocolVersion).toBe('2025-11-25');
  });

  it('get correct answers when their calls alternate', async () => {
    for (let i = 1; i <= 5; i++) {
      const a = await legacy.callTool({ name: 'safe_divide', arguments: { a: i * 10, b: 2 } });
      const b = await modern.callTool({ name: 'safe_divide', arguments: { a: i * 10, b: 5 } });
      expect(a.content).toEqual([{ type: 'text', text: String(i * 5) }]);
      expect(b.content).toEqual([{ type: 'text', text: String(i * 2) }]);
    }
  });

  it('get correct answers when their calls overlap', async () => {
    const rounds = Array.from({ length: 8 }, (_, i) =>
      Promise.all([
        legacy.callTool({ name: 'text_stats', arguments: { text: 'a '.repeat(i + 1) } }),
        modern.callTool({ name: 'text_stats', arguments: { text: 'b '.repeat(i + 2) } }),
        legacy.callTool({ name: 'safe_divide', arguments: { a: i, b: 0 } }),
        modern.listTools(),
      ]),
    );
    const results = await Promise.all(rounds);
    results.forEach(([legacyStats, modernStats, legacyError, modernList], i) => {
      expect(legacyStats.structuredContent).toMatchObject({
        words: i + 1,
        topWords: [{ word: 'a', count: i + 1 }],
      });
      expect(modernStats.structuredContent).toMatchObject({
        words: i + 2,
        topWords: [{ word: 'b', count: i + 2 }],
      });
      expect(legacyError.isError).toBe(true);
      expect(modernList.tools).toHaveLength(TEMPLATE_TOOL_NAMES.length);
    });
  });

  it('each get the resource-not-found code of their own era at the same moment', async () => {
    const [legacyError, modernError] = await Promise.all([
      legacy.readResource({ uri: 'docs://server/gone' }).then(
        () => undefined,
        (e: unknown) => e,
      ),
      modern.readResource({ uri: 'docs://server/gone' }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    ]);
    expect((legacyError as { code: number }).code).toBe(-32002);
    const miss = modernWire.calls('resources/read').at(-1)!;
    expect(finalResponse(miss)?.error.code).toBe(-32602);
    expect((modernError as { data: unknown }).data).toEqual({ uri: 'docs://server/gone' });
  });

  it('never saw the other era on the wire', () => {
    for (const exchange of legacyWire.exchanges) {
      expect(exchange.request?.params?._meta?.['io.modelcontextprotocol/protocolVersion']).toBeUndefined();
      expect(finalResponse(exchange)?.result ?? {}).not.toHaveProperty('resultType');
    }
    const modernCalls = modernWire.exchanges.filter((e) => e.request?.method === 'tools/call');
    expect(modernCalls.length).toBe(13);
    for (const exchange of modernWire.exchanges) {
      expect(exchange.request?.method).not.toBe('initialize');
      const result = finalResponse(exchange)?.result;
      if (result) expect(result.resultType).toBe('complete');
    }
  });
});
