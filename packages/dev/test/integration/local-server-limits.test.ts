import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOCAL_SERVER_LIMITS,
  startLocalServer,
  type LambdaHttpHandler,
  type LocalServer,
} from '../../src/local/index.ts';

/**
 * What the local server holds under many slow uploads on loopback: bounded by its limits (small ones here, so the
 * run is light), released when the uploads end, and ordinary requests served all along. Every upload stops by
 * itself: the server refuses it or times it out, and the client gives up after GIVE_UP_MS in any case.
 */

const LIMITS = {
  freeBodyBytes: 64 * 1024,
  sharedBodyBytes: 2 * 1024 * 1024,
  headersTimeoutMs: 2_000,
  requestTimeoutMs: 3_000,
};
const UPLOADS = 150;
const CHUNK = Buffer.alloc(16 * 1024, 0x20);
const CHUNK_EVERY_MS = 50;
/**
 * When a client gives up on an upload nobody stopped: a safety net only, far past the server's request timeout. The
 * server's timeouts count from when it accepts a connection, and Node takes one waiting connection per turn of its
 * event loop: on a busy machine the last of these uploads is accepted many seconds after its client connected.
 */
const GIVE_UP_MS = 60_000;

/** Answers with the size of the body it was given. */
const sizeOfBody: LambdaHttpHandler = async (event) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ bytes: event.body?.length ?? 0 }),
});

let local: LocalServer;
let port: number;
beforeAll(async () => {
  local = await startLocalServer({ handler: sizeOfBody, port: 0, limits: LIMITS });
  port = Number(new URL(local.url).port);
});
afterAll(() => local?.close());

/**
 * A chunked upload that sends CHUNK every CHUNK_EVERY_MS and never ends its body. Resolves with what the server
 * answered (status line and headers), or `closed` when the connection ended without an answer, or `gave up` after
 * `giveUpMs`.
 */
function slowUpload(giveUpMs = GIVE_UP_MS): { done: Promise<string>; abort(): void } {
  const socket = connect(port, '127.0.0.1');
  const frame = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]);
  let answer = '';
  const done = new Promise<string>((resolve) => {
    const finish = (outcome: string) => {
      clearInterval(pump);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(outcome);
    };
    const pump = setInterval(() => socket.writable && socket.write(frame), CHUNK_EVERY_MS);
    const giveUp = setTimeout(() => finish('gave up'), giveUpMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => finish(answer.split('\r\n\r\n')[0] || 'closed'));
    socket.on('error', () => undefined);
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\n',
    );
  });
  return { done, abort: () => socket.destroy() };
}

const statusLine = (answer: string) => answer.split('\r\n')[0];

/** One ordinary request: its status and what the handler saw. */
async function ordinary(): Promise<{ status: number; bytes: number }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  const res = await fetch(`${local.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, bytes: ((await res.json()) as { bytes: number }).bytes };
}

describe('the local server under slow uploads', () => {
  it(
    'holds no more than its limits allow, serves ordinary requests meanwhile, and lets go of it all after',
    async () => {
      let peak = 0;
      const watch = setInterval(() => (peak = Math.max(peak, local.heldBodies().bytes)), 10);
      const uploads = Array.from({ length: UPLOADS }, () => slowUpload().done);
      // Meanwhile: while the uploads hold the whole shared budget and free parts besides, however long that took.
      await expect
        .poll(() => local.heldBodies().bytes, { interval: 10, timeout: GIVE_UP_MS })
        .toBeGreaterThan(LIMITS.sharedBodyBytes);
      const during = await ordinary();
      const outcomes = await Promise.all(uploads);
      clearInterval(watch);

      expect(during).toEqual({ status: 200, bytes: expect.any(Number) });
      expect(during.bytes).toBeGreaterThan(0);
      // Every request may hold its free part; beyond that, all of them together hold the shared budget at most.
      expect(peak).toBeGreaterThan(LIMITS.sharedBodyBytes);
      expect(peak).toBeLessThanOrEqual(LIMITS.sharedBodyBytes + UPLOADS * LIMITS.freeBodyBytes);
      // Refused over the budget, or cut by the request timeout: none ran on until the client gave up.
      expect([...new Set(outcomes.map(statusLine))].sort()).toEqual([
        'HTTP/1.1 408 Request Timeout',
        'HTTP/1.1 503 Service Unavailable',
      ]);
      await expect.poll(() => local.heldBodies()).toEqual({ requests: 0, bytes: 0 });
      expect((await ordinary()).status).toBe(200);
    },
    GIVE_UP_MS + 30_000,
  );

  it('answers 503 with Retry-After, the way a busy gateway does', async () => {
    const hogs = Array.from({ length: 40 }, () => slowUpload());
    const refused = await Promise.race(hogs.map((h) => h.done));
    for (const hog of hogs) hog.abort();
    await Promise.all(hogs.map((h) => h.done));
    expect(statusLine(refused)).toBe('HTTP/1.1 503 Service Unavailable');
    expect(refused).toMatch(/\r\nretry-after: 1(\r\n|$)/i);
    await expect.poll(() => local.heldBodies()).toEqual({ requests: 0, bytes: 0 });
  });

  it('lets go of a body at once when its client goes away mid-upload', async () => {
    const upload = slowUpload();
    await expect.poll(() => local.heldBodies().bytes).toBeGreaterThan(4 * CHUNK.length);
    upload.abort();
    await expect.poll(() => local.heldBodies()).toEqual({ requests: 0, bytes: 0 });
    expect(await upload.done).toBe('closed');
  });

  it('runs with the documented limits unless told otherwise', async () => {
    const plain = await startLocalServer({ handler: sizeOfBody, port: 0 });
    try {
      expect(plain.server.maxConnections).toBe(LOCAL_SERVER_LIMITS.maxConnections);
      expect(plain.server.requestTimeout).toBe(LOCAL_SERVER_LIMITS.requestTimeoutMs);
      expect(plain.server.headersTimeout).toBe(LOCAL_SERVER_LIMITS.headersTimeoutMs);
    } finally {
      await plain.close();
    }
  });
});
