import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '@mcp-lambda/dev/testing';
import { loadTelemetry, silentLogger } from '@mcp-lambda/server/lambda';
import { callTokenEndpoint } from '../../src/upstream-token.ts';

/**
 * The token endpoint's answer is read within the call's time limit and size cap while it arrives, not only until
 * its headers do: an answer that trickles in is cut at the time limit even after a garbage collection (which in
 * Node 22's fetch can part a body still being read from the request's signal), and one that never ends, plain or
 * compressed, is cut at the cap instead of being held whole until the time limit.
 */

let server: Server;
let origin: string;
const open = new Set<ServerResponse>();
/** The answers to `path` still being sent. */
const sending = (path: string) => [...open].filter((res) => res.req.url === path).length;

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const gzip = req.url === '/gzip';
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    if (req.url === '/trickle') {
      res.write('{');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const spaces = Buffer.alloc(64 * 1024, 0x20);
    const source = new Readable({ read: () => void source.push(spaces) });
    res.on('close', () => source.destroy());
    (gzip ? source.pipe(createGzip()) : source).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One code exchange against `path`, with `timeoutMs` as both the call's limit and the caller's. */
const exchange = (path: string, timeoutMs: number) =>
  callTokenEndpoint(
    { clientId: 'bridge-client', timeoutMs },
    `${origin}${path}`,
    'upstream-secret',
    { grant_type: 'authorization_code', code: 'upstream-code' },
    AbortSignal.timeout(timeoutMs),
  );

/** The call's answer, or 'still reading' when it has not settled within `ms`. */
const within = (call: Promise<unknown>, ms: number) =>
  Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('still reading'), ms))]);

describe("reading the token endpoint's answer", () => {
  it('gives up on an answer that trickles in at the time limit, garbage collections or not', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const collecting = setInterval(collect, 20);
    try {
      const started = Date.now();
      expect(await within(exchange('/trickle', 500), 4_000)).toEqual({ ok: false, kind: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(2_000);
      await expect.poll(() => sending('/trickle')).toBe(0);
    } finally {
      clearInterval(collecting);
    }
  });

  it.each([
    ['an answer that never ends', '/plain'],
    ['a compressed answer that inflates without end', '/gzip'],
  ])('stops reading %s at the size cap, long before the time limit', async (_, path) => {
    const started = Date.now();
    expect(await within(exchange(path, 10_000), 8_000)).toEqual({ ok: false, kind: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect.poll(() => sending(path)).toBe(0);
  });
});

describe('the token call as a client span', () => {
  it('ends one span per call, failed with a fixed word, naming neither the code, the secret nor the path', async () => {
    const receiver = await startOtlpReceiver();
    try {
      const telemetry = await loadTelemetry({
        mode: 'on',
        serviceName: 'token-calls',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        log: silentLogger,
      });
      await telemetry.span('request', {}, async () => {
        await exchange('/plain', 10_000);
        await exchange('/trickle', 300);
      });
      await telemetry.flush(10_000);
      const request = receiver.spans.find((s) => s.name === 'request')!;
      const calls = receiver.spans.filter((s) => s.parentSpanId === request.spanId);
      expect(
        calls.map((s) => [
          s.name,
          s.kind,
          s.attributes['error.type'],
          s.attributes['http.response.status_code'],
        ]),
      ).toEqual([
        ['POST', 3, 'too_large', 200],
        ['POST', 3, 'TimeoutError', undefined],
      ]);
      expect(calls.every((s) => s.status.code === 2)).toBe(true);
      const recorded = JSON.stringify(receiver.spans.map((s) => [s.name, s.attributes, s.status]));
      for (const secret of ['upstream-code', 'upstream-secret', 'bridge-client', '/plain', '/trickle'])
        expect(recorded).not.toContain(secret);
    } finally {
      await receiver.close();
    }
  });
});
