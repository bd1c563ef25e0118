import { Writable } from 'node:stream';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { createLambdaHandler, createProxyLambdaHandler } from '../../src/lambda/adapter.ts';
import { portableStreamingRuntime } from '../../src/lambda/stream-runtime.ts';
import { createStreamingLambdaHandler } from '../../src/lambda/streaming.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { BASE_HEADERS } from '@mcp-lambda/dev/testing';

// API Gateway never sends these shapes, but a direct invoke, a function URL test event or a hand-written event can:
// each is a translation failure, answered as API Gateway answers a request it cannot read.

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

/** A well-formed payload 2.0 event (HTTP API, function URL) calling ping, with some fields replaced. */
const v2 = (fields: Record<string, unknown> = {}): unknown => ({
  version: '2.0',
  rawPath: '/mcp',
  rawQueryString: '',
  headers: { ...BASE_HEADERS },
  requestContext: { http: { method: 'POST', path: '/mcp' }, stage: '$default' },
  body: ping,
  isBase64Encoded: false,
  ...fields,
});

/** A well-formed payload 1.0 event (REST API) calling ping, with some fields replaced. */
const v1 = (fields: Record<string, unknown> = {}): unknown => ({
  resource: '/mcp',
  path: '/mcp',
  httpMethod: 'POST',
  headers: { ...BASE_HEADERS },
  multiValueHeaders: {},
  multiValueQueryStringParameters: null,
  requestContext: { stage: 'prod' },
  body: ping,
  isBase64Encoded: false,
  ...fields,
});

/** The event itself is not an object. */
const NOT_EVENTS: [string, unknown][] = [
  ['null', null],
  ['a number', 42],
  ['a string', '{"rawPath":"/mcp"}'],
  ['an array', [v2()]],
];

/** Fields both payload versions carry, each with a type API Gateway never gives it. */
const COMMON_FIELDS: [string, Record<string, unknown>, string][] = [
  ['a body that is a number', { body: 5 }, 'body'],
  ['a body that is an object', { body: { jsonrpc: '2.0' } }, 'body'],
  ['a body that is a boolean', { body: true }, 'body'],
  ['a body that is an array', { body: [ping] }, 'body'],
  ['an isBase64Encoded that is a string', { isBase64Encoded: 'true' }, 'isBase64Encoded'],
  ['a header value that is an array', { headers: { ...BASE_HEADERS, accept: ['a', 'b'] } }, 'headers.accept'],
  ['a header value that is a number', { headers: { ...BASE_HEADERS, 'x-n': 1 } }, 'headers.x-n'],
  ['a header value that is an object', { headers: { ...BASE_HEADERS, 'x-o': {} } }, 'headers.x-o'],
  ['headers that are a list', { headers: [['accept', '*/*']] }, 'headers'],
  ['headers that are a string', { headers: 'accept: */*' }, 'headers'],
];

const V2_FIELDS: [string, Record<string, unknown>, string][] = [
  ['a rawPath that is a number', { rawPath: 7 }, 'rawPath'],
  ['a rawQueryString that is an object', { rawQueryString: { a: '1' } }, 'rawQueryString'],
  ['cookies that are a string', { cookies: 'a=1' }, 'cookies'],
  ['a cookie that is a number', { cookies: ['a=1', 2] }, 'cookies'],
  ['a requestContext that is a string', { requestContext: 'ctx' }, 'requestContext'],
  ['an http context that is a list', { requestContext: { http: [] } }, 'requestContext.http'],
  [
    'a method that is an object',
    { rawPath: undefined, requestContext: { http: { method: { POST: 1 } } } },
    'requestContext.http.method',
  ],
  [
    'a stage that is a number',
    { requestContext: { http: { method: 'POST' }, stage: 1 } },
    'requestContext.stage',
  ],
];

const V1_FIELDS: [string, Record<string, unknown>, string][] = [
  ['a path that is a number', { path: 7 }, 'path'],
  ['an httpMethod that is a list', { httpMethod: ['POST'] }, 'httpMethod'],
  ['multiValueHeaders that are a string', { multiValueHeaders: 'accept' }, 'multiValueHeaders'],
  [
    'a multi-value header that is a string',
    { multiValueHeaders: { accept: '*/*' } },
    'multiValueHeaders.accept',
  ],
  [
    'a multi-value header holding a number',
    { multiValueHeaders: { accept: ['*/*', 1] } },
    'multiValueHeaders.accept',
  ],
  [
    'a multi-value query parameter that is a string',
    { multiValueQueryStringParameters: { a: '1' } },
    'multiValueQueryStringParameters.a',
  ],
];

interface Answer {
  status: number;
  headers: Record<string, string> | undefined;
  body: string;
}

const context = (): Context =>
  ({ awsRequestId: 'req-1', getRemainingTimeInMillis: () => 30_000 }) as unknown as Context;

const server = createMcpServer({ info: { name: 'unit', version: '1.0.0' }, tools: [] });

/** Runs the streaming handler over an in-memory response stream and splits the prelude from the body. */
async function streamed(event: unknown, log: Logger): Promise<Answer> {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  const handler = createStreamingLambdaHandler(server.handle, log, portableStreamingRuntime);
  await handler(event as never, stream, context());
  const all = Buffer.concat(chunks);
  const at = all.indexOf(Buffer.alloc(8));
  const prelude = JSON.parse(all.subarray(0, at).toString());
  return { status: prelude.statusCode, headers: prelude.headers, body: all.subarray(at + 8).toString() };
}

/** Runs a buffered handler and reads its result. */
async function buffered(
  create: typeof createLambdaHandler | typeof createProxyLambdaHandler,
  event: unknown,
  log: Logger,
): Promise<Answer> {
  const result = await create(server.handle, log)(event as never, context());
  return {
    status: result.statusCode ?? 0,
    headers: result.headers as Record<string, string>,
    body: String(result.body),
  };
}

const ADAPTERS: {
  name: string;
  event: (fields?: Record<string, unknown>) => unknown;
  fields: typeof V2_FIELDS;
  run: (event: unknown, log: Logger) => Promise<Answer>;
}[] = [
  {
    name: 'HTTP API handler, payload 2.0',
    event: v2,
    fields: V2_FIELDS,
    run: (e, l) => buffered(createLambdaHandler, e, l),
  },
  {
    name: 'proxy handler, payload 2.0',
    event: v2,
    fields: V2_FIELDS,
    run: (e, l) => buffered(createProxyLambdaHandler, e, l),
  },
  {
    name: 'proxy handler, payload 1.0',
    event: v1,
    fields: V1_FIELDS,
    run: (e, l) => buffered(createProxyLambdaHandler, e, l),
  },
  { name: 'streaming handler, payload 2.0', event: v2, fields: V2_FIELDS, run: streamed },
  { name: 'streaming handler, payload 1.0', event: v1, fields: V1_FIELDS, run: streamed },
];

/** A logger that keeps its warnings. */
function recordingLog(): Logger & { warnings: Record<string, unknown>[] } {
  const warnings: Record<string, unknown>[] = [];
  return {
    ...silentLogger,
    warnings,
    warn: (message, ...attributes) => void warnings.push(Object.assign({ message }, ...attributes)),
  };
}

const BAD_REQUEST = {
  status: 400,
  headers: { 'content-type': 'application/json' },
  body: '{"message":"Bad Request"}',
};

describe.each(ADAPTERS)('malformed Lambda events: $name', ({ event, fields, run }) => {
  it('answers a well-formed event (the baseline of every row below)', async () => {
    const answer = await run(event(), silentLogger);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it.each(NOT_EVENTS)(
    'an event that is %s answers 400 Bad Request as API Gateway words it',
    async (_name, bad) => {
      const log = recordingLog();
      expect(await run(bad, log)).toEqual(BAD_REQUEST);
      expect(log.warnings).toEqual([
        { message: 'Malformed event answered 400', requestId: 'req-1', field: 'event' },
      ]);
    },
  );

  it.each([...COMMON_FIELDS, ...fields])(
    'an event with %s answers 400 and names the field in the log',
    async (_name, replaced, field) => {
      const log = recordingLog();
      expect(await run(event(replaced), log)).toEqual(BAD_REQUEST);
      expect(log.warnings).toEqual([{ message: 'Malformed event answered 400', requestId: 'req-1', field }]);
      // The function keeps serving: the next well-formed event is answered.
      expect((await run(event(), silentLogger)).status).toBe(200);
    },
  );

  it('reads absent fields (undefined or null) as absent, as API Gateway sends them', async () => {
    const answer = await run(
      event({
        cookies: null,
        multiValueHeaders: null,
        rawQueryString: null,
        headers: { ...BASE_HEADERS, 'x-absent': null },
      }),
      silentLogger,
    );
    expect(answer.status).toBe(200);
  });

  it('caps a field name taken from the event (a header name) in the log line', async () => {
    const log = recordingLog();
    const name = `x-${'n'.repeat(5_000)}`;
    expect(await run(event({ headers: { ...BASE_HEADERS, [name]: 1 } }), log)).toEqual(BAD_REQUEST);
    expect(String(log.warnings[0]?.field).length).toBeLessThan(200);
  });
});
