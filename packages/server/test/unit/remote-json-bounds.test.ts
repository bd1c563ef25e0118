import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlattenedJWSInput, JWTHeaderParameters } from 'jose';
import { KeysUnavailableError, RemoteKeySet } from '../../src/auth/jwks.ts';
import { fetchJsonObject } from '../../src/auth/remote-json.ts';

/**
 * The issuer's documents are read within the fetch's time limit and size cap while the body arrives, not only
 * until its headers do: a body that trickles in is cut at the time limit even after a garbage collection (which in
 * Node 22's fetch can part a body still being read from the request's signal), so a stalled key-set answer cannot
 * hold the key cache's one fetch for good; and a compressed body is counted as it expands, so a small one that
 * inflates without end is cut at the cap.
 */

let server: Server;
let origin: string;
/** Key-set requests so far: the first one's answer stalls after its first byte, the later ones are whole. */
let keySetRequests = 0;
const open = new Set<ServerResponse>();
/** The answers to `path` still being sent. */
const sending = (path: string) => [...open].filter((res) => res.req.url === path).length;

/** A body that never ends: spaces, plain or gzip-compressed. */
function endless(res: ServerResponse, gzip: boolean) {
  const spaces = Buffer.alloc(64 * 1024, 0x20);
  const source = new Readable({ read: () => void source.push(spaces) });
  res.on('close', () => source.destroy());
  (gzip ? source.pipe(createGzip()) : source).pipe(res);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const gzip = req.url === '/gzip';
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    if (req.url === '/keys' && (keySetRequests += 1) > 1) return res.end('{"keys":[]}');
    if (req.url === '/trickle' || req.url === '/keys') {
      res.write('{');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    endless(res, gzip);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Runs `work` while garbage is collected every 20 ms. */
async function collecting<T>(work: () => Promise<T>): Promise<T> {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const timer = setInterval(collect, 20);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** The call's outcome, or 'still reading' when it has not settled within `ms`. */
const within = (call: Promise<unknown>, ms: number) =>
  Promise.race([
    call.then(
      () => 'read',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still reading'), ms)),
  ]);

describe('reading an issuer document', () => {
  it('gives up on a body that trickles in at the time limit, garbage collections or not', async () => {
    await collecting(async () => {
      const started = Date.now();
      const outcome = await within(fetchJsonObject(`${origin}/trickle`, { timeoutMs: 500 }), 4_000);
      expect(outcome).toMatch(/timed out/);
      expect(Date.now() - started).toBeLessThan(2_000);
      // The connection is closed, not left streaming.
      await expect.poll(() => sending('/trickle')).toBe(0);
    });
  });

  it('lets a key set whose answer stalled be fetched again by the next request, not held by the stalled one', async () => {
    const keys = new RemoteKeySet({ jwksUri: `${origin}/keys`, timeoutMs: 500, retryMs: 0 });
    const header: JWTHeaderParameters = { alg: 'RS256', kid: 'k1' };
    const token = { payload: '', signature: '' } satisfies FlattenedJWSInput;
    const outcome = () =>
      keys.resolve(header, token, Date.now() + 1_500).then(
        () => 'a key',
        (error: Error) => error.name,
      );
    await collecting(async () => {
      // The stalled answer fails this request (503), within its deadline.
      expect(await outcome()).toBe(KeysUnavailableError.name);
      // The issuer answers again: a later request reads the keys (none of which is k1) instead of waiting for good.
      await expect.poll(outcome).toBe('JWKSNoMatchingKey');
    });
    expect(keySetRequests).toBeGreaterThan(1);
  });

  it.each([
    ['an endless body', '/plain'],
    ['a compressed body that inflates without end', '/gzip'],
  ])('stops reading %s at the size cap, long before the time limit', async (_, path) => {
    const started = Date.now();
    const outcome = await within(fetchJsonObject(`${origin}${path}`, { timeoutMs: 10_000 }), 8_000);
    expect(outcome).toMatch(/returned more than 262144 bytes/);
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect.poll(() => sending(path)).toBe(0);
  });
});
