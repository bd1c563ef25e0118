import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from '../protocol/types.ts';
import { sseFrame } from './replies.ts';

/** An SSE comment: clients ignore it (HTML "event stream" format), gateways see traffic. */
const KEEP_ALIVE = ': keep-alive\n\n';

/**
 * The per-request event stream of a response sent while it is produced (response streaming). Nothing is committed
 * until there is something to send: the first notification opens it (status 200, then the event), and so does the
 * first keep-alive tick of a request that stays silent for `heartbeatMs` (gateways close quiet connections: API
 * Gateway REST APIs after 5 minutes). A request that finishes before either is answered as it would be without
 * streaming, so an error keeps its own HTTP status (2026-07-28: a missing client capability is a 400). Events queue
 * here as they happen and leave as the adapter iterates; the response ends the stream. Its events carry no ids: a
 * stream that can be resumed is a `ResumableStream` (resume/resumable-stream.ts).
 */
export class LiveStream implements AsyncIterable<string> {
  /** Settles when the stream opens; it may never do so (the answer is then an ordinary response). */
  readonly opened: Promise<void>;
  protected isOpen = false;
  protected ended = false;
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
  send(message: JSONRPCNotification | JSONRPCRequest): void {
    this.write(JSON.stringify(message), false, 'id' in message);
  }

  /** Sends the call's response, the stream's last event, and ends the stream. */
  finish(response: JSONRPCResponse): void {
    this.write(JSON.stringify(response), true);
    this.end();
  }

  /** Ends the HTTP response while the call goes on (SEP-1699): whether it could; only resumable streams can. */
  cut(): boolean {
    return false;
  }

  /** The signal that cancels the call when the client goes away (spec: Streamable HTTP): this one. */
  cancelling(disconnected: AbortSignal): AbortSignal {
    return disconnected;
  }

  /** Settles once the work the call left after its body (a resumable stream's log writes) is done. */
  drained(): Promise<void> {
    return Promise.resolve();
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

  /** Sends one message (JSON text); `last` for the response, `request` for a request to the client. */
  protected write(data: string, _last: boolean, _request = false): void {
    this.commit();
    this.push(sseFrame(data));
  }

  protected commit(): void {
    if (this.isOpen || this.ended) return;
    this.isOpen = true;
    this.markOpened();
  }

  protected push(chunk: string): void {
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
