import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What clients are told to keep an idle connection for (`Keep-Alive: timeout=5`, Node's own default). */
export const KEEP_ALIVE_HINT_SECONDS = 5;

/**
 * How long the server itself keeps an idle connection: far past the hint. A client whose process is busy (a
 * loaded machine, a test computing between calls) closes its idle connections late and may reuse one after the
 * hint; it must find the connection still open.
 */
const IDLE_CONNECTION_MS = 65_000;

/**
 * Closes idle keep-alive connections without ever resetting a request away. Node's own expiry destroys a connection
 * as soon as its timer is due, even when the client has just written a request on it that the server has not read
 * yet (its timer and the read are in different phases of the event loop): the kernel then answers the request with
 * a reset, and the client sees `ECONNRESET`. Here clients are told 5 s, the connection is kept for a minute more,
 * and a due connection is closed only after the pending reads have run, and only if no request arrived meanwhile.
 */
export function closeIdleConnectionsSafely(server: Server, idleMs = IDLE_CONNECTION_MS): void {
  server.keepAliveTimeout = idleMs;
  const requests = new WeakMap<Socket, number>();
  const busy = new WeakSet<Socket>();
  // First among the request listeners, so the hint is set before any of them writes its head.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    requests.set(socket, (requests.get(socket) ?? 0) + 1);
    busy.add(socket);
    res.once('close', () => busy.delete(socket));
    // Setting Keep-Alive ourselves keeps Node from advertising the longer server-side timeout.
    if (res.shouldKeepAlive) res.setHeader('keep-alive', `timeout=${KEEP_ALIVE_HINT_SECONDS}`);
  });
  // A 'timeout' listener takes the expiry over from Node, which then leaves the socket open.
  server.on('timeout', (socket: Socket) => {
    const seen = requests.get(socket) ?? 0;
    // setImmediate runs after the poll phase, which reads whatever request is already waiting on the socket.
    setImmediate(() => {
      if (busy.has(socket) || (requests.get(socket) ?? 0) !== seen) return;
      socket.destroy();
    });
  });
}
