import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { Transport } from '../http/transport.ts';
import type { StreamedHttpResponse } from '../wire/types.ts';
import { withKeys, type Logger } from '../log.ts';
import { fromProxyEvent } from './adapter.ts';
import { translateEvent } from './event-fields.ts';
import {
  lambdaStreamingRuntime,
  type LambdaResponseStream,
  type LambdaStreamingRuntime,
  type StreamingHandler,
} from './stream-runtime.ts';

/** The events a streaming MCP function receives: REST API proxy events (payload 1.0), or function URL events (2.0). */
export type StreamingEvent = APIGatewayProxyEvent | APIGatewayProxyEventV2;

/** Writes one chunk and waits while the stream asks to (backpressure); returns at once when the stream is gone. */
function write(stream: LambdaResponseStream, chunk: string): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  if (stream.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Ends the stream and waits until the runtime has taken everything (or the stream is gone). */
function finish(stream: LambdaResponseStream): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.on('close', resolve);
    stream.end(resolve);
  });
}

/**
 * Wraps a neutral handler as a Lambda response-streaming handler (API Gateway REST API with
 * `ResponseTransferMode: STREAM`, or a function URL with `InvokeMode: RESPONSE_STREAM`). It only translates: the
 * event into a neutral request, then the neutral response into the runtime's stream, the status and headers
 * first (`HttpResponseStream.from`), then the body: at once when it is complete, chunk by chunk as the transport
 * yields a streamed one. A stream that closes or fails before its end is reported to the transport as a
 * disconnect; the Lambda runtime does not report a client that goes away (the function then runs to its end). Work
 * the response leaves running after its body (`after`) keeps the invocation until it settles.
 */
export function createStreamingLambdaHandler(
  handle: Transport,
  log: Logger,
  runtime: LambdaStreamingRuntime = lambdaStreamingRuntime(),
): StreamingHandler<StreamingEvent> {
  return runtime.streamifyResponse<StreamingEvent>(async (event, responseStream, context: Context) => {
    // The invocation ends with the handler's promise, not when idle keep-alive sockets close.
    context.callbackWaitsForEmptyEventLoop = false;
    const disconnect = new AbortController();
    let ending = false;
    responseStream.on('close', () => {
      if (!ending) disconnect.abort();
    });
    responseStream.on('error', () => disconnect.abort());
    const requestId = context.awsRequestId;
    const deadline =
      typeof context.getRemainingTimeInMillis === 'function'
        ? Date.now() + context.getRemainingTimeInMillis()
        : undefined;
    const requestLog = withKeys(log, { requestId });
    const translated = translateEvent(fromProxyEvent, event, requestLog);
    const response =
      'rejected' in translated
        ? translated.rejected
        : await handle(translated.request, {
            requestId,
            log: requestLog,
            platform: { event, context },
            ...(deadline !== undefined ? { deadline } : {}),
            streaming: { disconnected: disconnect.signal },
          });
    const stream = runtime.HttpResponseStream.from(responseStream, {
      statusCode: response.status,
      headers: response.headers,
      ...('cookies' in response && response.cookies?.length ? { cookies: response.cookies } : {}),
    });
    if (typeof response.body === 'string') {
      await write(stream, response.body);
    } else {
      await write(stream, ''); // the prelude: status and headers leave before the first event
      // Read to the end even after a disconnect: the transport finishes the request (and logs it) that way.
      for await (const chunk of response.body) await write(stream, chunk);
    }
    ending = true;
    await finish(stream);
    // A cut stream's call goes on after its response ended: the invocation lasts until it is done.
    if (typeof response.body !== 'string') await (response as StreamedHttpResponse).after;
  });
}
