import type { Dispatch } from '../dispatcher.ts';
import { errorFields } from '../log.ts';
import { InternalError } from '../protocol/errors.ts';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '../protocol/types.ts';
import { eventId, newStreamId } from '../resume/event-ids.ts';
import type { EventSink, LoggedEvent, StreamResumption } from '../resume/event-log.ts';
import { SSE_HEADERS, sseFrame } from './replies.ts';
import type { InvocationContext, StreamedHttpResponse } from './types.ts';

/** An SSE comment: clients ignore it (HTML "event stream" format), gateways see traffic. */
const KEEP_ALIVE = ': keep-alive\n\n';
/** Events a resumable stream keeps in memory for its log, should it start: the last few, and at most this size. */
const KEPT_EVENTS = 32;
const KEPT_CHARS = 128 * 1024;
/** Most events one stream logs, and the largest: a flood stays bounded (the response is always logged). */
export const MAX_LOGGED_EVENTS = 1_000;
export const MAX_LOGGED_BYTES = 300 * 1024;

/**
 * The per-request event stream of a response sent while it is produced (response streaming). Nothing is committed
 * until there is something to send: the first notification opens it (status 200, then the event), and so does the
 * first keep-alive tick of a request that stays silent for `heartbeatMs` (gateways close quiet connections: API
 * Gateway REST APIs after 5 minutes). A request that finishes before either is answered as it would be without
 * streaming, so an error keeps its own HTTP status (2026-07-28: a missing client capability is a 400). Events queue
 * here as they happen and leave as the adapter iterates; the response ends the stream.
 *
 * A resumable stream (SEP-1699: handshake era, with a session) opens with a priming event (an id, the `retry` field,
 * empty data) and gives its events ids. Once it has been open `logAfterMs`, or when it is cut (`cut`: the HTTP
 * response ends and the call goes on), its events also go to the log that `GET` with `Last-Event-ID` resumes from
 * (resume/), the last few it sent first. A stream that ends sooner writes nothing.
 */
export class LiveStream implements AsyncIterable<string> {
  /** Settles when the stream opens; it may never do so (the answer is then an ordinary response). */
  readonly opened: Promise<void>;
  private isOpen = false;
  private ended = false;
  private readonly chunks: string[] = [];
  private wake: (() => void) | undefined;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private logTimer: ReturnType<typeof setTimeout> | undefined;
  private markOpened!: () => void;
  private streamId = '';
  private position = 0;
  private sent: LoggedEvent[] = [];
  private sentChars = 0;
  private sink: EventSink | undefined;
  private logged = 0;

  constructor(
    heartbeatMs: number,
    private readonly resumption?: StreamResumption,
  ) {
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

  /** Whether the stream gives its events ids and can be cut. */
  get resumable(): boolean {
    return this.resumption !== undefined;
  }

  /** Sends a message now, opening the stream if need be. */
  send(message: JSONRPCNotification | JSONRPCRequest): void {
    this.write(JSON.stringify(message), false);
  }

  /** Sends the call's response, the stream's last event, and ends the stream. */
  finish(response: JSONRPCResponse): void {
    this.write(JSON.stringify(response), true);
    this.end();
  }

  /**
   * Ends the HTTP response now while the call goes on, its later events going to the log (resumable streams
   * only). Whether the stream is cut: false for one that cannot be resumed or has ended.
   */
  cut(): boolean {
    if (!this.sink && (!this.resumption || this.ended)) return false;
    this.commit();
    this.startLog();
    this.end();
    return true;
  }

  /** Settles once every logged event is written (at once for a stream that never logged). */
  drained(): Promise<void> {
    return this.sink ? this.sink.drained() : Promise.resolve();
  }

  /** Ends the stream after the events already queued (or drops it, unopened, when the answer went out plainly). */
  end(): void {
    clearInterval(this.heartbeat);
    clearTimeout(this.logTimer);
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

  private write(data: string, last: boolean): void {
    this.commit();
    if (!this.resumption) return this.push(sseFrame(data));
    // Past the log's bounds an event still goes out live, without an id: it cannot be resumed.
    const loggable =
      !this.sink || last || (this.logged < MAX_LOGGED_EVENTS && Buffer.byteLength(data) <= MAX_LOGGED_BYTES);
    if (!loggable) return this.push(sseFrame(data));
    const event = { position: ++this.position, data, ...(last ? { last } : {}) };
    if (this.sink) {
      this.logged++;
      this.sink.append(event);
    } else this.keep(event);
    this.push(sseFrame(data, eventId(this.streamId, event.position)));
  }

  /** Keeps the last events sent, should the log start (the client may not have received them). */
  private keep(event: LoggedEvent): void {
    this.sent.push(event);
    this.sentChars += event.data.length;
    while (this.sent.length > KEPT_EVENTS || this.sentChars > KEPT_CHARS)
      this.sentChars -= this.sent.shift()!.data.length;
  }

  /** From now on every event goes to the log too, which starts with the events kept. */
  private startLog(): void {
    if (this.sink) return;
    this.sink = this.resumption!.startLog(this.streamId, this.sent, this.position + 1);
    this.sent = [];
  }

  private commit(): void {
    if (this.isOpen || this.ended) return;
    this.isOpen = true;
    if (this.resumption) {
      // The priming event (SEP-1699): an id to resume from, and how long to wait before resuming.
      this.streamId = newStreamId();
      this.push(`id: ${eventId(this.streamId, 0)}\nretry: ${this.resumption.retryMs}\ndata: \n\n`);
      this.logTimer = setTimeout(() => this.startLog(), this.resumption.logAfterMs);
    }
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
        live.finish(outcome.response);
      } catch (error) {
        live.finish(internal('response could not be sent', error));
      }
      return outcome.audit;
    },
    (error: unknown) => {
      live.finish(internal('request failed unexpectedly', error));
      return undefined;
    },
  );
  // A cut stream's call goes on after its body ends: the invocation lasts until its last event is logged.
  const after = finished.then(() => live.drained());
  return { response: { status: 200, headers: { ...SSE_HEADERS }, body: live, after }, finished };
}

/**
 * A streamed response whose request is logged once its body has been read to the end and its call has finished
 * (a cut stream's body ends first); `after` then settles too, so the adapter keeps the invocation until it does.
 */
export function loggedAtEnd(
  response: StreamedHttpResponse,
  finished: Promise<Record<string, unknown> | undefined>,
  logLine: (audit: Record<string, unknown> | undefined) => void,
): StreamedHttpResponse {
  let bodyEnded!: () => void;
  const ended = new Promise<void>((resolve) => (bodyEnded = resolve));
  async function* body(): AsyncGenerator<string, void, undefined> {
    try {
      yield* response.body;
    } finally {
      bodyEnded();
    }
  }
  const after = Promise.all([finished.catch(() => undefined), ended, response.after]).then(([audit]) =>
    logLine(audit),
  );
  return { ...response, body: body(), after };
}
