import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleConnectionsSafely, KEEP_ALIVE_HINT_SECONDS } from '../../src/local/keep-alive.ts';
import { serveHandler } from '../../src/testing/local.ts';

// A client that reuses an idle connection late (its process busy, as on a loaded machine) must get an answer, never
// a reset: the servers of `npm start` close idle connections only when no request is waiting on them.

const REQUEST =
  'POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi';

/** Reads one complete response (Content-Length framed) from a raw socket. */
function readResponse(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    const onData = (chunk: Buffer) => {
      data += chunk.toString('latin1');
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(data.slice(0, end))?.[1] ?? 0);
      if (data.length < end + 4 + length) return;
      socket.off('data', onData).off('error', reject).off('end', onEnd);
      resolve(data);
    };
    const onEnd = () => reject(new Error(`connection closed after ${JSON.stringify(data)}`));
    socket.on('data', onData).once('error', reject).once('end', onEnd);
  });
}

/** Blocks this process's event loop, as a busy test or a starved machine does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

let server: Server | undefined;
afterEach(async () => {
  const current = server;
  server = undefined;
  if (!current) return;
  current.closeAllConnections();
  await new Promise((resolve) => current.close(resolve));
});

async function listen(idleMs: number): Promise<number> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  closeIdleConnectionsSafely(server, idleMs);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('idle keep-alive connections of the local servers', () => {
  it('answers a request written on a connection whose idle time ran out while the process was busy', async () => {
    const port = await listen(200);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(REQUEST);
    expect(await readResponse(socket)).toMatch(/^HTTP\/1\.1 200/);
    // Past the idle time with the loop blocked: the expiry is due, and the next request is already on the wire
    // before the loop gets back to its timers.
    busyFor(1_500);
    socket.write(REQUEST);
    expect(await readResponse(socket)).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
  });

  it('still closes a connection that stays idle', async () => {
    const port = await listen(200);
    const socket = connect(port, '127.0.0.1');
    socket.write(REQUEST);
    await readResponse(socket);
    const closed = Date.now();
    await new Promise((resolve) => socket.once('close', resolve));
    // Node adds its own margin (keepAliveTimeoutBuffer, 1 s on Node 22) to the idle time.
    expect(Date.now() - closed).toBeLessThan(5_000);
  });

  it('tells clients the short hint, and keeps the connection far longer itself', async () => {
    const port = await listen(60_000);
    const socket = connect(port, '127.0.0.1');
    socket.write(REQUEST);
    const head = await readResponse(socket);
    expect(head).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(head).toMatch(new RegExp(`\\r\\nkeep-alive: timeout=${KEEP_ALIVE_HINT_SECONDS}\\r\\n`, 'i'));
    socket.destroy();
  });

  it('is what the local MCP server does (npm start)', async () => {
    const local = await serveHandler(async () => ({ statusCode: 200, body: 'ok' }));
    const res = await fetch(local.url, { method: 'POST', body: '{}' });
    expect(res.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_HINT_SECONDS}`);
    await res.text();
    await local.close();
  });
});
