import type { Dispatch } from '../dispatcher.ts';
import { errorFields } from '../log.ts';
import { InternalError } from '../protocol/errors.ts';
import type { JSONRPCRequest } from '../protocol/types.ts';
import { LiveStream } from '../wire/live-stream.ts';
import { SSE_HEADERS } from '../wire/replies.ts';
import type { InvocationContext, StreamedHttpResponse } from '../wire/types.ts';

/**
 * Streamed answers, loaded by the transport on the first request that may stream (behind an adapter that streams,
 * from a client that reads event streams): a function that never streams never loads them.
 */

/** The live stream of a request that cannot be resumed: its events carry no ids. */
export const plainLiveStream = (heartbeatMs: number): LiveStream => new LiveStream(heartbeatMs);

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
