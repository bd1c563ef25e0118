import { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { fromRestEvent } from '../../src/lambda/rest-event.ts';
import {
  lambdaStreamingRuntime,
  portableStreamingRuntime,
  type HttpResponsePrelude,
  type LambdaResponseStream,
  type LambdaStreamingRuntime,
} from '../../src/lambda/stream-runtime.ts';
import { createStreamingLambdaHandler } from '../../src/lambda/streaming.ts';
import type { Transport } from '../../src/http/transport.ts';
import { silentLogger } from '../../src/log.ts';
import { BASE_HEADERS } from '@mcp-lambda/dev/testing';

/** What a fake runtime saw: handlers it marked, preludes it was given, and every byte written, in order. */
interface Recording {
  streamified: number;
  preludes: HttpResponsePrelude[];
  writes: Buffer[];
}

/**
 * A stand-in for the Lambda runtime with its semantics: `streamifyResponse` marks the handler, `from` sets the
 * prelude that the first write sends before the body, followed by 8 NUL bytes.
 */
function fakeRuntime(recording: Recording): LambdaStreamingRuntime {
  return {
    streamifyResponse(handler) {
      recording.streamified += 1;
      return handler;
    },
    HttpResponseStream: {
      from(stream, prelude) {
        recording.preludes.push(prelude);
        return portableStreamingRuntime.HttpResponseStream.from(stream, prelude);
      },
    },
  };
}

/** A response stream that keeps what it is given, like the runtime's request to the Lambda service. */
function responseStream(
  recording: Recording,
  onWrite: () => void = () => {},
): Writable & LambdaResponseStream {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      recording.writes.push(Buffer.from(chunk));
      onWrite();
      callback();
    },
  });
}

const context = (): Context =>
  ({
    awsRequestId: 'req-1',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 60_000,
  }) as unknown as Context;

function restEvent(body: unknown, overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    resource: '/mcp',
    path: '/mcp',
    httpMethod: 'POST',
    headers: { ...BASE_HEADERS, 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { stage: 'prod', path: '/prod/mcp' } as APIGatewayProxyEvent['requestContext'],
    body: JSON.stringify(body),
    isBase64Encoded: false,
    ...overrides,
  };
}

let release: () => void = () => {};
let toolSignal: AbortSignal | undefined;
const server = createMcpServer({
  info: { name: 'unit', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'held',
      description: 'Reports progress, then waits for the test',
      handler: async (_args, ctx) => {
        toolSignal = ctx.signal;
        ctx.progress(1, 2);
        await new Promise<void>((resolve) => {
          release = resolve;
          ctx.signal.addEventListener('abort', () => resolve());
        });
        return 'released';
      },
    }),
  ],
});

const callHeld = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'held', arguments: {}, _meta: { progressToken: 9 } },
};

/** The bytes a stream received, split at the prelude delimiter. */
function split(writes: Buffer[]): { prelude: unknown; body: string } {
  const all = Buffer.concat(writes);
  const at = all.indexOf(Buffer.alloc(8));
  return { prelude: JSON.parse(all.subarray(0, at).toString()), body: all.subarray(at + 8).toString() };
}

const globalBefore = (globalThis as { awslambda?: unknown }).awslambda;
afterEach(() => {
  (globalThis as { awslambda?: unknown }).awslambda = globalBefore;
});

describe('fromRestEvent (REST API proxy event, payload 1.0 → neutral request)', () => {
  it('carries method, the stage-less path, lower-cased headers and the body', () => {
    expect(fromRestEvent(restEvent({ a: 1 }, { headers: { 'Content-Type': 'application/json' } }))).toEqual({
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  });

  it('carries the query as a raw query string', () => {
    const request = fromRestEvent(
      restEvent(null, { multiValueQueryStringParameters: { a: ['1', '2'], b: ['x y'] } }),
    );
    expect(request.query).toBe('a=1&a=2&b=x+y');
  });

  it('joins repeated headers and decodes a base64 body', () => {
    const request = fromRestEvent(
      restEvent(null, {
        headers: { Accept: 'text/event-stream' },
        multiValueHeaders: { Accept: ['application/json', 'text/event-stream'] },
        body: Buffer.from('{"x":"é"}').toString('base64'),
        isBase64Encoded: true,
      }),
    );
    expect(request.headers.accept).toBe('application/json,text/event-stream');
    expect(request.body).toBe('{"x":"é"}');
  });
});

describe('createStreamingLambdaHandler', () => {
  it('marks the handler with streamifyResponse once', () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    createStreamingLambdaHandler(server.handle, silentLogger, fakeRuntime(recording));
    expect(recording.streamified).toBe(1);
  });

  it('uses the runtime global when the Lambda runtime provides one, the portable one otherwise', () => {
    expect(lambdaStreamingRuntime()).toBe(portableStreamingRuntime);
    // Outside Lambda, libraries leave a partial global behind (Powertools' invoke store): not a runtime.
    (globalThis as { awslambda?: unknown }).awslambda = { InvokeStore: {} };
    expect(lambdaStreamingRuntime()).toBe(portableStreamingRuntime);
    const provided = fakeRuntime({ streamified: 0, preludes: [], writes: [] });
    (globalThis as { awslambda?: unknown }).awslambda = provided;
    expect(lambdaStreamingRuntime()).toBe(provided);
  });

  it('writes a complete answer as the prelude, 8 NUL bytes and the JSON body', async () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    const handler = createStreamingLambdaHandler(server.handle, silentLogger, fakeRuntime(recording));
    const ctx = context();
    await handler(restEvent({ jsonrpc: '2.0', id: 2, method: 'ping' }), responseStream(recording), ctx);
    expect(recording.preludes).toEqual([
      { statusCode: 200, headers: { 'content-type': 'application/json' } },
    ]);
    expect(split(recording.writes)).toEqual({
      prelude: { statusCode: 200, headers: { 'content-type': 'application/json' } },
      body: '{"jsonrpc":"2.0","id":2,"result":{}}',
    });
    expect(ctx.callbackWaitsForEmptyEventLoop).toBe(false);
  });

  it('keeps HTTP error statuses plain: a bad body is a 400 with its JSON-RPC error', async () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    const handler = createStreamingLambdaHandler(server.handle, silentLogger, fakeRuntime(recording));
    await handler(restEvent(null, { body: '{' }), responseStream(recording), context());
    expect(recording.preludes[0]?.statusCode).toBe(400);
    expect(JSON.parse(split(recording.writes).body).error.code).toBe(-32700);
  });

  it('sends the status and headers, then the progress event, before the tool finishes', async () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    let progressWritten!: () => void;
    const progressSeen = new Promise<void>((resolve) => (progressWritten = resolve));
    const stream = responseStream(recording, () => {
      if (Buffer.concat(recording.writes).includes('notifications/progress')) progressWritten();
    });
    const handler = createStreamingLambdaHandler(server.handle, silentLogger, fakeRuntime(recording));
    const done = handler(restEvent(callHeld), stream, context());
    await progressSeen; // the tool is still held here
    const { prelude, body } = split(recording.writes);
    expect(prelude).toEqual({
      statusCode: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      },
    });
    expect(body).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":9,"progress":1,"total":2}}\n\n',
    );
    release();
    await done;
    expect(split(recording.writes).body).toMatch(/"text":"released".*\n\n$/);
    expect(stream.writableFinished).toBe(true);
  });

  it('reports a stream closed before its end as a disconnect: the tool is cancelled', async () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    let progressWritten!: () => void;
    const progressSeen = new Promise<void>((resolve) => (progressWritten = resolve));
    const stream = responseStream(recording, () => {
      if (Buffer.concat(recording.writes).includes('notifications/progress')) progressWritten();
    });
    const handler = createStreamingLambdaHandler(server.handle, silentLogger, fakeRuntime(recording));
    const done = handler(restEvent(callHeld), stream, context());
    await progressSeen;
    stream.destroy();
    await done;
    expect(toolSignal?.aborted).toBe(true);
    expect(Buffer.concat(recording.writes).toString()).not.toMatch(/cancelled/);
  });

  it('serves function URL events (payload 2.0) as well', async () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    const handler = createStreamingLambdaHandler(server.handle, silentLogger, fakeRuntime(recording));
    const event = {
      version: '2.0',
      rawPath: '/mcp',
      headers: { ...BASE_HEADERS },
      requestContext: { http: { method: 'POST', path: '/mcp' }, stage: '$default' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2;
    await handler(event, responseStream(recording), context());
    expect(split(recording.writes).body).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
  });

  it('ends the response when a cut body ends, and keeps the invocation until the work it left (after) is done', async () => {
    const recording: Recording = { streamified: 0, preludes: [], writes: [] };
    let finishWork!: () => void;
    const after = new Promise<void>((resolve) => (finishWork = resolve));
    const cut: Transport = (async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      body: (async function* () {
        yield 'id: s.0\nretry: 1000\ndata: \n\n';
      })(),
      after,
    })) as unknown as Transport;
    const handler = createStreamingLambdaHandler(cut, silentLogger, fakeRuntime(recording));
    const stream = responseStream(recording);
    let invocationDone = false;
    const invocation = handler(restEvent(callHeld), stream, context()).then(() => (invocationDone = true));
    await new Promise<void>((resolve) => stream.once('finish', () => resolve()));
    expect(split(recording.writes).body).toBe('id: s.0\nretry: 1000\ndata: \n\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(invocationDone).toBe(false);
    finishWork();
    await invocation;
    expect(invocationDone).toBe(true);
  });
});
