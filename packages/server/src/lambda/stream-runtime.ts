import type { Context } from 'aws-lambda';

/**
 * The response stream the Lambda Node.js runtime hands a streaming handler: a Node.js `Writable` (the runtime's own
 * HTTP request to the Lambda service). This is the part of it the streaming adapter uses.
 */
export interface LambdaResponseStream {
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
  end(callback?: () => void): unknown;
  on(event: 'close' | 'drain' | 'finish', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'close' | 'drain' | 'finish' | 'error', listener: (...args: unknown[]) => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
}

/** A handler the runtime calls with the event, the response stream and the context (response streaming). */
export type StreamingHandler<E> = (
  event: E,
  responseStream: LambdaResponseStream,
  context: Context,
) => Promise<void>;

/** The status and headers that precede a streamed body (API Gateway and function URLs read them first). */
export interface HttpResponsePrelude {
  statusCode: number;
  headers: Record<string, string>;
  /** `Set-Cookie` values, one per cookie. */
  cookies?: string[];
}

/**
 * What the Lambda Node.js runtime provides as the `awslambda` global, and all this template uses of it:
 * `streamifyResponse` marks a handler as streaming, and `HttpResponseStream.from` makes the first write send the
 * JSON prelude and 8 NUL bytes before the body (the "HTTP integration response" format API Gateway and function
 * URLs expect). Tests and the local server pass their own with the same semantics.
 */
export interface LambdaStreamingRuntime {
  streamifyResponse<E>(handler: StreamingHandler<E>): StreamingHandler<E>;
  HttpResponseStream: {
    from(stream: LambdaResponseStream, prelude: HttpResponsePrelude): LambdaResponseStream;
  };
}

/** The delimiter between the JSON prelude and the body: 8 NUL bytes (JSON text never contains one). */
export const PRELUDE_DELIMITER = new Uint8Array(8);

/**
 * The same two functions outside the Lambda runtime (the local server, tests): `streamifyResponse` leaves the
 * handler as it is, and `HttpResponseStream.from` writes the prelude and the delimiter on the first write, as the
 * runtime does.
 */
export const portableStreamingRuntime: LambdaStreamingRuntime = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: {
    from(stream, prelude) {
      const write = stream.write.bind(stream);
      let first = true;
      stream.write = (chunk, callback) => {
        if (first) {
          first = false;
          write(JSON.stringify(prelude));
          write(PRELUDE_DELIMITER);
        }
        return write(chunk, callback);
      };
      return stream;
    },
  },
};

/**
 * The runtime's `awslambda` global when the code runs in Lambda, the portable stand-in otherwise. Other libraries
 * create a partial `awslambda` object outside Lambda (Powertools' invoke store does), so the functions themselves
 * are what is checked.
 */
export function lambdaStreamingRuntime(): LambdaStreamingRuntime {
  const provided = (globalThis as unknown as { awslambda?: Partial<LambdaStreamingRuntime> }).awslambda;
  return typeof provided?.streamifyResponse === 'function' &&
    typeof provided.HttpResponseStream?.from === 'function'
    ? (provided as LambdaStreamingRuntime)
    : portableStreamingRuntime;
}
