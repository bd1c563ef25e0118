import type { Transport } from '../http/transport.ts';
import type { HttpResponse, StreamedHttpResponse } from '../wire/types.ts';
import { Defaults } from '../limits.ts';
import { jsonLogger, withKeys, type Logger } from '../log.ts';
import { fromFetchRequest } from './request.ts';

/** A server as a Fetch handler: what Hono's `app.fetch`, Deno, Bun and Cloudflare Workers call. */
export type FetchHandler = (request: Request, platform?: unknown) => Promise<Response>;

/** How a Fetch handler serves the server. */
export interface FetchHandlerOptions {
  /**
   * Every line of a request carries its request id.
   * @default a JSON logger at INFO with the service name `mcp-server`
   */
  log?: Logger;
  /**
   * How long one request may run, in ms: its deadline, which bounds every outbound call and the tool's budget as a
   * Lambda invocation's remaining time does.
   * @default none: the tool budget alone (the server's `toolTimeoutMs`)
   */
  timeoutMs?: number;
  /**
   * Whether a tool call may be answered as an event stream (progress and log notifications while the tool runs)
   * when the client accepts one. Fetch bodies stream on every runtime that has them; a client that goes away
   * aborts the request's signal, which cancels the call, unless its stream can be resumed (docs/streaming.md): the
   * call then goes on after the response ended, which needs a runtime that keeps running work it did not await.
   * @default true
   */
  streaming?: boolean;
  /**
   * The request id of one request.
   * @default a random UUID
   */
  requestId?: (request: Request) => string;
}

/** Statuses whose responses have no body (the Fetch `Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The neutral response's headers, each cookie a `Set-Cookie` header of its own. */
function headersOf(response: HttpResponse | StreamedHttpResponse): Headers {
  const headers = new Headers(response.headers);
  if ('cookies' in response)
    for (const cookie of response.cookies ?? []) headers.append('set-cookie', cookie);
  return headers;
}

/**
 * The events of a streamed response as a byte stream. A reader that cancels (the client went away) does not stop
 * the iteration: it runs to its end unread, as the transport asks, so the request finishes and is logged.
 */
function eventStream(body: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const events = body[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await events.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      while (!(await events.next()).done);
    },
  });
}

/** Translates a neutral response into a Fetch `Response`. */
function toFetchResponse(response: HttpResponse | StreamedHttpResponse): Response {
  const init = { status: response.status, headers: headersOf(response) };
  if (NULL_BODY.has(response.status)) return new Response(null, init);
  if (typeof response.body === 'string') return new Response(response.body, init);
  return new Response(eventStream(response.body), init);
}

/**
 * The server as `(Request) => Promise<Response>`, so it mounts in Hono (`app.all('/mcp', (c) => fetch(c.req.raw))`)
 * and runs wherever Fetch runs. Like the Lambda adapters it only translates: the request into a neutral one, the
 * neutral response back; every MCP rule stays in the transport. `platform` is passed through untouched
 * (`InvocationContext.platform`).
 */
export function createFetchHandler(
  server: { handle: Transport; http?: { maxBodyBytes: number } },
  options: FetchHandlerOptions = {},
): FetchHandler {
  const log = options.log ?? jsonLogger({ serviceName: 'mcp-server', level: 'INFO' });
  const maxBodyBytes = server.http?.maxBodyBytes ?? Defaults.maxBodyBytes;
  const streaming = options.streaming ?? true;
  return async function fetch(request, platform) {
    const requestId = options.requestId?.(request) ?? crypto.randomUUID();
    const response = await server.handle(await fromFetchRequest(request, maxBodyBytes), {
      requestId,
      log: withKeys(log, { requestId }),
      ...(options.timeoutMs !== undefined ? { deadline: Date.now() + options.timeoutMs } : {}),
      ...(platform !== undefined ? { platform } : {}),
      ...(streaming ? { streaming: { disconnected: request.signal } } : {}),
    });
    return toFetchResponse(response);
  };
}
