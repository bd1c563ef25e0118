import type { IncomingMessage } from 'node:http';
import { Platform } from '@mcp-lambda/server/limits';

/**
 * What the local server holds at most, so that slow or abandoned uploads cannot grow it without bound (200 slow
 * chunked uploads once took `npm start` to 2.4 GB: each may buffer up to the 10 MB body limit).
 */
export interface LocalServerLimits {
  /** Connections held at once; Node closes any connection beyond it as it arrives. */
  maxConnections: number;
  /** Bytes of its body each request may hold without drawing on the shared budget. */
  freeBodyBytes: number;
  /**
   * Bytes of bodies beyond their free part held by all requests together, from their arrival to the end of their
   * response. The request whose next chunk would pass it is answered 503 with Retry-After.
   */
  sharedBodyBytes: number;
  /** Time to receive the headers of a request; Node answers 408 and closes the connection beyond it. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included; Node answers 408 and closes the connection beyond it. */
  requestTimeoutMs: number;
}

/** The local server's limits (docs/development.md, Running locally). */
export const LOCAL_SERVER_LIMITS: Readonly<LocalServerLimits> = {
  // Above the load command's 1,000 connections, so a load run never meets it.
  maxConnections: 1_024,
  // An ordinary MCP message fits, so ordinary requests are served while large uploads fill the shared budget.
  freeBodyBytes: 64 * 1024,
  // Six bodies at API Gateway's 10 MB limit at once: more than one developer's clients send.
  sharedBodyBytes: 64 * 1024 * 1024,
  // Headers arrive in one write from any real client; 10 s is ample on a loaded machine.
  headersTimeoutMs: 10_000,
  // API Gateway's integration timeout (HTTP API): a client gets as long to send a request as a function to answer.
  requestTimeoutMs: 30_000,
};

/** How often Node checks the headers and request timeouts (its default, 30 s, would let a slow body run late). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** What a refused request is told to wait before trying again (503), in seconds. */
export const RETRY_AFTER_SECONDS = 1;

/** The bodies the server holds: their requests, and their bytes (free parts included). */
export interface HeldBodies {
  requests: number;
  bytes: number;
}

/** The bytes every request's body holds, against the limits; one per server. */
export class BodyBudget {
  private shared = 0;
  private readonly held: HeldBodies = { requests: 0, bytes: 0 };

  constructor(private readonly limits: Pick<LocalServerLimits, 'freeBodyBytes' | 'sharedBodyBytes'>) {}

  /** What is held now. */
  now(): HeldBodies {
    return { ...this.held };
  }

  /**
   * A request's account: `draw` adds bytes to it, false when they would pass the shared budget (nothing is drawn
   * then); `release` returns all it drew, once, however many times it is called.
   */
  open(): { draw(bytes: number): boolean; release(): void } {
    let bytes = 0;
    let shared = 0;
    let live = true;
    this.held.requests++;
    return {
      draw: (more) => {
        if (!live) return false;
        const needed = Math.max(0, bytes + more - this.limits.freeBodyBytes) - shared;
        if (this.shared + needed > this.limits.sharedBodyBytes) return false;
        this.shared += needed;
        shared += needed;
        bytes += more;
        this.held.bytes += more;
        return true;
      },
      release: () => {
        if (!live) return;
        live = false;
        this.shared -= shared;
        this.held.bytes -= bytes;
        this.held.requests--;
      },
    };
  }
}

/** A request's body, or why there is none: over the size limit (413), over the budget (503), or the client left. */
export type BodyOutcome = { body: Buffer } | { refused: 413 | 503 } | { aborted: true };

/**
 * Reads the whole body into `account`. Refuses as soon as it passes API Gateway's limit (at once for a declared
 * Content-Length above it, else when the bytes read so far pass it: a chunked body has no declared length) or the
 * shared budget; the rest is never read, and the caller answers and closes the connection. The chunks read are let
 * go at once when the body is refused or the client goes away before its end.
 */
export function readBody(
  req: IncomingMessage,
  account: { draw(bytes: number): boolean },
): Promise<BodyOutcome> {
  return new Promise((resolve, reject) => {
    // API Gateway refuses bodies above 10 MB before Lambda runs; the local server does the same.
    const limit = Platform.gatewayBodyBytes;
    if (Number(req.headers['content-length']) > limit) return resolve({ refused: 413 });
    let chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: BodyOutcome) => {
      req.off('data', onData);
      req.off('close', onClose);
      chunks = [];
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit || !account.draw(chunk.length)) {
        req.pause();
        return settle({ refused: size > limit ? 413 : 503 });
      }
      chunks.push(chunk);
    };
    // 'close' before 'end': the client went away (or Node's request timeout ended the connection) mid-body.
    const onClose = () => settle({ aborted: true });
    req.on('data', onData);
    req.on('close', onClose);
    req.once('end', () => settle({ body: Buffer.concat(chunks, size) }));
    req.on('error', (error) => {
      chunks = [];
      reject(error);
    });
  });
}
