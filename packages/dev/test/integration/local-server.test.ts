import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '@mcp-lambda/server';
import { Platform } from '@mcp-lambda/server/limits';
import { serveServer, type RunningServer } from '../../src/testing/local.ts';

/** The local server's own rules, over raw sockets: what API Gateway would refuse before the function runs. */

let server: RunningServer;
let port: number;
beforeAll(async () => {
  server = await serveServer({
    info: { name: 'local', version: '1.0.0' },
    tools: [defineTool({ name: 'ping', description: 'pong', handler: () => 'pong' })],
  });
  port = Number(new URL(server.base).port);
});
afterAll(() => server?.close());

const CALL = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}';
const HEADERS =
  'Host: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
  'MCP-Protocol-Version: 2025-11-25\r\n';

/** Sends one raw request and returns everything the server wrote back before closing. */
function raw(head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}Connection: close\r\n\r\n${body}`));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

/**
 * Streams a chunked body of 64 KB chunks, up to `maxBytes`, for as long as the server keeps the connection open.
 * Returns the answer and how many body bytes the socket accepted before the server closed it.
 */
function streamChunked(maxBytes: number): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    let sent = 0;
    let answer = '';
    let closed = false;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /mcp HTTP/1.1\r\n${HEADERS}Transfer-Encoding: chunked\r\n\r\n`);
      const pump = () => {
        while (!closed && sent < maxBytes) {
          sent += chunk.length;
          if (!socket.write(frame)) return void socket.once('drain', pump);
        }
        if (!closed) socket.end('0\r\n\r\n');
      };
      pump();
    });
    socket.on('data', (data) => (answer += data.toString('latin1')));
    const done = () => {
      if (closed) return;
      closed = true;
      resolve({ answer, sent });
    };
    socket.on('close', done);
    socket.on('error', done);
  });
}

describe('the local server refuses what API Gateway would refuse', () => {
  it('a chunked body is refused with 413 as soon as it passes 10 MB, and the rest is never read', async () => {
    const limit = Platform.gatewayBodyBytes;
    const { answer, sent } = await streamChunked(50 * limit);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    // The socket stopped taking data a little past the limit (what the OS buffers), far short of 500 MB.
    expect(sent).toBeGreaterThan(limit);
    expect(sent).toBeLessThan(3 * limit);
  });

  it('a declared Content-Length above 10 MB is refused with 413 before any of it is read', async () => {
    const answer = await raw(
      `POST /mcp HTTP/1.1\r\n${HEADERS}Content-Length: ${Platform.gatewayBodyBytes + 1}\r\n`,
      'x',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it.each([
    ['an absolute-form target', 'POST http://127.0.0.1/mcp HTTP/1.1'],
    ['an absolute-form target naming another host', 'POST http://elsewhere.example/mcp HTTP/1.1'],
    ['an authority-form target', 'POST 127.0.0.1:80 HTTP/1.1'],
  ])('%s is refused with 400', async (_name, line) => {
    const answer = await raw(`${line}\r\n${HEADERS}Content-Length: ${CALL.length}\r\n`, CALL);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).not.toContain('pong');
  });

  it('a path that starts with two slashes is a path, not a host', async () => {
    const answer = await raw(
      `POST //127.0.0.1/mcp HTTP/1.1\r\n${HEADERS}Content-Length: ${CALL.length}\r\n`,
      CALL,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('an origin-form request is served as before', async () => {
    const answer = await raw(`POST /mcp HTTP/1.1\r\n${HEADERS}Content-Length: ${CALL.length}\r\n`, CALL);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('pong');
  });
});
