import type { Dispatch } from '../dispatcher.ts';
import { errorFields } from '../log.ts';
import { InternalError } from '../protocol/errors.ts';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '../protocol/types.ts';
import { SSE_HEADERS, sseEvent } from './replies.ts';
import type { InvocationContext, StreamedHttpResponse } from './types.ts';

/** An SSE comment: clients ignore it (HTML "event stream" format), gateways see traffic. */
const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * The per-request event stream of a response sent while it is produced (response streaming). The request opens it
 * when its work begins (or with its first notification); events queue here as they happen and leave as the adapter
 * iterates; the response ends it. While it is open, a comment every `heartbeatMs` keeps a quiet stream alive
 * through gateways that close idle connections (API Gateway REST APIs: 5 minutes).
 */
export class LiveStream implements AsyncIterable<string> {
  /** Settles when the stream opens; it may never do so (the answer is then an ordinary response). */
  readonly opened: Promise<void>;
  private isOpen = false;
  private ended = false;
  private readonly chunks: string[] = [];
  private wake: (() => void) | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private markOpened!: () => void;

  constructor(private readonly heartbeatMs: number) {
    this.opened = new Promise((resolve) => (this.markOpened = resolve));
  }

  /** Whether the answer is this stream: from then on the status is 200 and every message is an event. */
  get open(): boolean {
    return this.isOpen;
  }

  /** Commits the answer to this stream; once is enough, later calls change nothing. */
  begin(): void {
    if (this.isOpen || this.ended) return;
    this.isOpen = true;
    this.heartbeat = setInterval(() => this.push(KEEP_ALIVE), this.heartbeatMs);
    this.markOpened();
  }

  /** Sends a message now, opening the stream if need be. */
  send(message: JSONRPCNotification | JSONRPCResponse): void {
    const event = sseEvent(message);
    this.begin();
    this.push(event);
  }

  /** Ends the stream after the events already queued. */
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
 * missing client capability, 400) travels as the final event, still a JSON-RPC error.
 */
export function liveAnswer(
  live: LiveStream,
  dispatching: ReturnType<Dispatch>,
  request: JSONRPCRequest,
  ctx: InvocationContext,
): { response: StreamedHttpResponse; finished: Promise<Record<string, unknown> | undefined> } {
  const finished = dispatching.then((outcome) => {
    try {
      live.send(outcome.response);
    } catch (error) {
      ctx.log.error('response could not be sent', { error: errorFields(error, { stack: true }) });
      live.send(new InternalError(ctx.requestId).toResponse(request.id));
    }
    live.end();
    return outcome.audit;
  });
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
