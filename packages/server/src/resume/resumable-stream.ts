import { CANCEL_WATCH_MIN_INTERVAL_MS, watchCancellation } from '../call-state/cancel-watch.ts';
import { callerOf, slotOf } from '../call-state/ids.ts';
import type { LoggedEvent, PolledCallState } from '../call-state/stores.ts';
import type { Admission } from '../wire/admitted.ts';
import { LiveStream } from '../wire/live-stream.ts';
import { sseFrame } from '../wire/replies.ts';
import type { TransportOptions } from '../wire/transport-options.ts';
import type { InvocationContext } from '../wire/types.ts';
import { Defaults } from '../limits.ts';
import type { RequestId } from '../protocol/types.ts';
import type { Session } from '../sessions/session-id.ts';
import { eventId, newStreamId } from './event-ids.ts';
import { streamLogSink, type EventSink, type StreamLogSetup } from './stream-log.ts';

/**
 * Events a stream keeps in memory for its log, should it start: the last few, and at most this many UTF-8 bytes (the
 * head item holds them as JSON, which at worst doubles them: well inside DynamoDB's 400 KB).
 */
const KEPT_EVENTS = 32;
const KEPT_BYTES = 128 * 1024;
/**
 * Most events one stream logs, the largest, and the most bytes in all: a flood stays bounded in store writes and in
 * the memory its queued writes hold (the response is always logged).
 */
export const MAX_LOGGED_EVENTS = 1_000;
export const MAX_LOGGED_BYTES = 300 * 1024;
export const MAX_LOGGED_TOTAL_BYTES = 4 * 1024 * 1024;
/**
 * Requests to the client (mid-call questions) are logged past those bounds, up to this many more bytes: on a cut
 * stream a question that is not logged is lost, and its call waits for an answer that cannot come. They are few
 * anyway: a call asks one question at a time and waits for its answer.
 */
const MAX_LOGGED_REQUEST_BYTES = 1024 * 1024;
const MAX_LOGGED_REQUESTS = 100;
/** How far past the head's `next` the positions of a log reach: its events, its questions, and the response. */
export const MAX_LOG_SPAN = MAX_LOGGED_EVENTS + MAX_LOGGED_REQUESTS + 1;

/** How a resumable stream behaves: its `retry`, when its log starts, and what the log is bound to. */
export interface Resumption {
  retryMs: number;
  /** A stream still open after this long starts its log (a cut the function cannot see still resumes). */
  logAfterMs: number;
  log: StreamLogSetup;
  /**
   * Watches for the client's cancellation of the call, sent to another instance (call-state/cancel-watch.ts): calls
   * `onCancel` when it sees one; returns what stops the watch.
   */
  watch?: (onCancel: (reason: string) => void) => () => void;
}

/**
 * A live stream that survives a cut (SEP-1699). It opens with a priming event (an id, the `retry` field, empty data)
 * and gives its events ids `<stream>.<position>`. Once it has been open `logAfterMs`, or when it is cut (`cut`: the
 * tool asked, or the client went away), its events also go to the log that `GET` with `Last-Event-ID` resumes from
 * on any instance, the last few it had sent first. A stream that ends sooner writes nothing.
 */
export class ResumableStream extends LiveStream {
  private streamId = '';
  private position = 0;
  private sent: LoggedEvent[] = [];
  private sentBytes = 0;
  private sink: EventSink | undefined;
  private logged = { events: 0, bytes: 0, requests: 0 };
  private logTimer: ReturnType<typeof setTimeout> | undefined;
  /** Events after a cut, held until the head is written: dropped then (they are in the log), else sent live. */
  private held: string[] | undefined;
  private ending = false;
  private unwatch: (() => void) | undefined;

  constructor(
    heartbeatMs: number,
    private readonly resumption: Resumption,
  ) {
    super(heartbeatMs);
  }

  /**
   * Ends the HTTP response while the call goes on, its later events going to the log; false once ended. The response
   * ends once the log's head is written, so a client that resumes at once finds it; if the head cannot be written,
   * the stream stays open and the rest goes out live.
   */
  override cut(): boolean {
    if (!this.sink && this.ended) return false;
    this.commit();
    this.startLog();
    if (this.held || this.ended) return true;
    const held: string[] = (this.held = []);
    void this.sink!.started.then((ok) => {
      this.held = undefined;
      if (!ok) for (const frame of held) this.push(frame);
      if (ok || this.ending) this.endWire();
    });
    return true;
  }

  /**
   * A client that goes away does not cancel the call (2025-11-25: "disconnection is not cancellation"): its open
   * stream is cut, and the client resumes it. A stream the client never saw an id of cannot be resumed, nor one
   * whose log cannot start, so then the call is cancelled. So is a call whose client sent `notifications/cancelled`
   * to any instance, once the watch sees it.
   */
  override cancelling(disconnected: AbortSignal): AbortSignal {
    const cancel = new AbortController();
    this.unwatch = this.resumption.watch?.((reason) => cancel.abort(reason));
    const gone = () => {
      if (!(this.open && this.cut())) return cancel.abort(disconnected.reason);
      void this.sink!.started.then((ok) => ok || cancel.abort(disconnected.reason));
    };
    if (disconnected.aborted) gone();
    else disconnected.addEventListener('abort', gone, { once: true });
    return cancel.signal;
  }

  override drained(): Promise<void> {
    return this.sink ? this.sink.drained() : Promise.resolve();
  }

  /** The call is over (its response sent, or answered plainly): the watch stops, and the wire ends. */
  override end(): void {
    this.unwatch?.();
    this.endWire();
  }

  /** Ends the wire: a cut ends it while the call goes on. */
  private endWire(): void {
    clearTimeout(this.logTimer);
    // Cut, its head not written yet: the wire ends when it is (or after the held events, if it cannot be).
    if (this.held) this.ending = true;
    else super.end();
  }

  protected override write(data: string, last: boolean, request = false): void {
    this.commit();
    // Past the log's bounds an event still goes out live, without an id: it cannot be resumed.
    if (!this.loggable(data, last, request)) return this.deliver(sseFrame(data));
    const event = { position: ++this.position, data, ...(last ? { last } : {}) };
    if (this.sink) this.sink.append(event);
    else this.keep(event);
    this.deliver(sseFrame(data, eventId(this.streamId, event.position)));
  }

  private deliver(frame: string): void {
    if (this.held) this.held.push(frame);
    else this.push(frame);
  }

  /** Whether an event goes to the log (or is kept for it), counting it against the log's bounds if so. */
  private loggable(data: string, last: boolean, request: boolean): boolean {
    if (!this.sink || last) return true;
    const bytes = Buffer.byteLength(data);
    const { logged } = this;
    if (bytes > MAX_LOGGED_BYTES) return false;
    const room = request
      ? logged.requests < MAX_LOGGED_REQUESTS &&
        logged.bytes + bytes <= MAX_LOGGED_TOTAL_BYTES + MAX_LOGGED_REQUEST_BYTES
      : logged.events < MAX_LOGGED_EVENTS && logged.bytes + bytes <= MAX_LOGGED_TOTAL_BYTES;
    if (!room) return false;
    if (request) logged.requests++;
    else logged.events++;
    logged.bytes += bytes;
    return true;
  }

  protected override commit(): void {
    if (this.isOpen || this.ended) return;
    // The priming event: an id to resume from, and how long to wait before resuming.
    this.streamId = newStreamId();
    this.push(`id: ${eventId(this.streamId, 0)}\nretry: ${this.resumption.retryMs}\ndata: \n\n`);
    this.logTimer = setTimeout(() => this.startLog(), this.resumption.logAfterMs);
    super.commit();
  }

  /** Keeps the last events sent, should the log start (the client may not have received them). */
  private keep(event: LoggedEvent): void {
    this.sent.push(event);
    this.sentBytes += Buffer.byteLength(event.data);
    while (this.sent.length > KEPT_EVENTS || this.sentBytes > KEPT_BYTES)
      this.sentBytes -= Buffer.byteLength(this.sent.shift()!.data);
  }

  /** From now on every event goes to the log too, which starts with the events kept. */
  private startLog(): void {
    if (this.sink) return;
    this.sink = streamLogSink(this.resumption.log, this.streamId, this.sent, this.position + 1);
    this.sent = [];
  }
}

/**
 * The resumable stream of one request, bound to its session (and caller) and bounded by its deadline. A request still
 * running when its log would start (`logAfterMs`) watches for its client's cancellation from then on.
 */
export function resumableStream(
  options: TransportOptions,
  callState: PolledCallState,
  request: { callId: RequestId; session: Session; admitted: Admission; ctx: InvocationContext },
): ResumableStream {
  const { callId, session, admitted, ctx } = request;
  const principal = admitted.principal?.clientKey;
  const logAfterMs = options.streamLogAfterMs ?? Defaults.streamLogAfterMs;
  const deadline = ctx.deadline !== undefined ? { deadline: ctx.deadline } : {};
  return new ResumableStream(options.streamHeartbeatMs ?? Defaults.streamHeartbeatMs, {
    retryMs: options.streamRetryMs ?? Defaults.streamRetryMs,
    logAfterMs,
    log: {
      store: callState.streamLog,
      callId,
      sessionId: session.id,
      ...(principal ? { principal } : {}),
      ...deadline,
      log: ctx.log,
    },
    watch: (onCancel) => {
      const caller = callerOf(session.id, principal);
      const slot = slotOf(caller, callId);
      const intervalMs = Math.max(callState.pollIntervalMs, CANCEL_WATCH_MIN_INTERVAL_MS);
      const store = callState.cancellations;
      const setup = { store, slot, caller, afterMs: logAfterMs, intervalMs, log: ctx.log };
      return watchCancellation({ ...setup, ...deadline }, onCancel);
    },
  });
}
