import type { Logger } from '../log.ts';

/** A runtime-neutral HTTP request: adapters build it from API Gateway events or node:http. */
export interface HttpRequest {
  method: string;
  path: string;
  /** Header names in lower case (API Gateway HTTP APIs deliver them so; adapters normalise). */
  headers: Readonly<Record<string, string | undefined>>;
  /** The decoded body text, if any. */
  body?: string;
  /** The raw query string without `?` (percent-encoded, repeated names kept), if any. */
  query?: string;
  /** Request cookies as `name=value` pairs: API Gateway (payload 2.0) moves them out of the headers. */
  cookies?: readonly string[];
}

/** A runtime-neutral HTTP response. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** `Set-Cookie` values, one per cookie (a header record cannot repeat a name). */
  cookies?: string[];
}

/**
 * A response sent while it is produced (response streaming): the status and headers leave first, then each chunk of
 * `body` as soon as the transport yields it. Only adapters that offer {@link StreamingInvocationContext.streaming}
 * receive one.
 */
export interface StreamedHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** SSE events as they happen; the response is complete when the iteration ends. Iterate it to the end. */
  body: AsyncIterable<string>;
  /**
   * Work that goes on after the body ends (a cut stream's call, its events going to the log, docs/streaming.md):
   * the invocation must last until it settles. It never rejects.
   */
  after?: Promise<void>;
}

/** Per-invocation facts an adapter knows and the transport needs. */
export interface InvocationContext {
  /** Unique id of this invocation, echoed in logs and error messages. */
  requestId: string;
  /** Epoch milliseconds at which the runtime will stop this invocation, if it has such a limit. */
  deadline?: number;
  /** Every line carries the request id. */
  log: Logger;
  /**
   * The raw runtime context the adapter received (for Lambda: `{ event, context }`), passed through untouched for
   * code that needs a platform detail the neutral request does not carry. The core never reads it.
   */
  platform?: unknown;
}

/** What an adapter that can stream a response offers the transport, besides the per-invocation facts. */
export interface StreamingInvocationContext extends InvocationContext {
  streaming: {
    /** Aborts when the client closes the connection: the request is then cancelled (its tool's signal fires). */
    disconnected: AbortSignal;
  };
}
