import type { Dispatch } from '../dispatcher.ts';
import { errorFields } from '../log.ts';
import { InternalError } from '../protocol/errors.ts';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '../protocol/types.ts';
import { SSE_HEADERS, sseEvent } from './replies.ts';
import type { InvocationContext, StreamedHttpResponse } from './types.ts';

/** An SSE comment: clients ignore it (HTML "event stream" format), gateways see traffic. */
const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * The per-request event stream of a response sent while it is produced (response streaming). Nothing is committed
 * until there is something to send: the first notification opens it (status 200, then the event), and so does the
 * first keep-alive tick of a request that stays silent for `heartbeatMs` (gateways close quiet connections: API
 * Gateway REST APIs after 5 minutes). A request that finishes before either is answered as it would be without
 * streaming, so an error keeps its own HTTP status (2026-07-28: a missing client capability is a 400). Events queue
 * here as they happen and leave as the adapter iterates; the response ends the stream.
 */
export class LiveStream implements AsyncIterable<string> {
  /** Settles when the stream opens; it may never do so (the answer is then an ordinary response). */
  readonly opened: Promise<void>;
  private isOpen = false;
  private ended = false;
  private readonly chunks: string[] = [];
  private wake: (() => void) | undefined;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private markOpened!: () => void;

  constructor(heartbeatMs: number) {
    this.opened = new Promise((resolve) => (this.markOpened = resolve));
    this.heartbeat = setInterval(() => {
      this.commit();
      this.push(KEEP_ALIVE);
    }, heartbeatMs);
  }

  /** Whether the answer is this stream: from then on the status is 200 and every message is an event. */
  get open(): boolean {
    return this.isOpen;
  }

  /** Sends a message now, opening the stream if need be. */
  send(message: JSONRPCNotification | JSONRPCRequest | JSONRPCResponse): void {
    const event = sseEvent(message);
    this.commit();
    this.push(event);
  }

  /** Ends the stream after the events already queued (or drops it, unopened, when the answer went out plainly). */
  end(): void {
    clearInterval(this.heartbeat);
    this.ended = true;
    this.wakeReader();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string, void, undefined> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk !== undefined) yield chunk;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private commit(): void {
    if (this.isOpen || this.ended) return;
    this.isOpen = true;
    this.markOpened();
  }

  private push(chunk: string): void {
    if (this.ended) return;
    this.chunks.push(chunk);
    this.wakeReader();
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * The answer of a request whose event stream is open: 200 now, the events as they come, the response last. Once
 * the stream is open no other status can follow, so an error that would have had its own status (a 2026-07-28
 * missing client capability, 400, after progress was already sent) travels as the final event, still a JSON-RPC
 * error.
 */
export function liveAnswer(
  live: LiveStream,
  dispatching: ReturnType<Dispatch>,
  request: JSONRPCRequest,
  ctx: InvocationContext,
): { response: StreamedHttpResponse; finished: Promise<Record<string, unknown> | undefined> } {
  const internal = (what: string, error: unknown) => {
    ctx.log.error(what, { error: errorFields(error, { stack: true }) });
    return new InternalError(ctx.requestId).toResponse(request.id);
  };
  // Whatever happens, the stream ends with a response: a reader must never wait for ever.
  const finished = dispatching.then(
    (outcome) => {
      try {
        live.send(outcome.response);
      } catch (error) {
        live.send(internal('response could not be sent', error));
      }
      live.end();
      return outcome.audit;
    },
    (error: unknown) => {
      live.send(internal('request failed unexpectedly', error));
      live.end();
      return undefined;
    },
  );
  return { response: { status: 200, headers: { ...SSE_HEADERS }, body: live }, finished };
}

/** A streamed body that writes the request's log line once it has been read to its end. */
export async function* loggedAtEnd(
  body: AsyncIterable<string>,
  finished: Promise<Record<string, unknown> | undefined>,
  logLine: (audit: Record<string, unknown> | undefined) => void,
): AsyncGenerator<string, void, undefined> {
  try {
    yield* body;
  } finally {
    logLine(await finished.catch(() => undefined));
  }
}
