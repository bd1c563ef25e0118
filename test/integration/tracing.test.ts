import { createSocket, type Socket } from 'node:dgram';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGatewayEvent, lambdaContext, type BenchHandler } from '../bench/lambda-event.ts';
import { toolCallRequest } from '../load/mcp-request.ts';
import { startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';

/**
 * X-Ray tracing end to end: the real MCP function (`functions/mcp/handler.ts`) with MCP_TRACING on, in what
 * Powertools Tracer and the X-Ray SDK take for a Lambda environment with a sampled trace, answers a tool call that
 * stores its output in S3; the subsegments it sends to the X-Ray daemon address (local UDP, as on Lambda) are read
 * back: the request's subsegment annotated with the tool, and the S3 writes inside the same trace. The companion
 * and the worker are reached through the Lambda Invoke API (a local stand-in here, which runs the real companion
 * handler in this process): what is checked is that each Invoke request carries the X-Ray trace header with this
 * trace's root and the invoke subsegment as parent, sampled. That header is what the Lambda service reads to run the
 * invoked function inside the same trace (its segment then parents to the invoke subsegment); that last step is the
 * service's, and is not reproduced here.
 */

const TRACE_ID = '1-67891233-abcdef012345678912345678';
const FUNCTION_SEGMENT = '53995c3f42cd8ad8';

/** An X-Ray segment document as the daemon receives it (the fields these tests read). */
interface SubsegmentDocument {
  type: 'subsegment';
  id: string;
  name: string;
  trace_id: string;
  parent_id: string;
  namespace?: string;
  annotations?: Record<string, unknown>;
  aws?: { operation?: string; bucket_name?: string; [field: string]: unknown };
  subsegments?: SubsegmentDocument[];
  end_time?: number;
}

let s3: TestS3;
let daemon: Socket;
let handler: BenchHandler;
const received: SubsegmentDocument[] = [];
const COMPANION = 'companion-under-test';
/** The stand-in for the Lambda Invoke API, and every invocation it received. */
let lambdaApi: Server;
const invocations: {
  functionName: string;
  invocationType: string | undefined;
  headers: IncomingHttpHeaders;
}[] = [];
let companion: BenchHandler | undefined;

/** Answers Invoke as Lambda does: the companion runs for real; any other function is accepted as an Event. */
function startLambdaApi(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const functionName = decodeURIComponent(
        /\/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '',
      );
      const invocationType = req.headers['x-amz-invocation-type'] as string | undefined;
      invocations.push({ functionName, invocationType, headers: req.headers });
      if (invocationType === 'Event') {
        res.writeHead(202).end();
        return;
      }
      companion ??= (await import('../../functions/companion/handler.ts')).handler as BenchHandler;
      const result = await companion(JSON.parse(Buffer.concat(chunks).toString('utf8')), lambdaContext());
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  s3 = await startTestS3();
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    // Each datagram: a JSON header line, then one segment document.
    const [, document] = message.toString('utf8').split('\n');
    if (document) received.push(JSON.parse(document) as SubsegmentDocument);
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  lambdaApi = await startLambdaApi();
  Object.assign(process.env, {
    ...s3.env(),
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    MCP_TRACING: 'xray',
    MCP_SERVER_NAME: 'tracing-under-test',
    // What the Lambda runtime sets: the environment, and the invocation's trace header (sampled).
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    LAMBDA_TASK_ROOT: '/var/task',
    AWS_LAMBDA_FUNCTION_NAME: 'tracing-under-test',
    _X_AMZN_TRACE_ID: `Root=${TRACE_ID};Parent=${FUNCTION_SEGMENT};Sampled=1`,
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    // Stored outputs are read back through the companion function, over the Lambda Invoke API.
    RESOURCES_FUNCTION_NAME: COMPANION,
    AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambdaApi.address() as AddressInfo).port}`,
  });
  delete process.env.POWERTOOLS_DEV;
  handler = (await import('../../functions/mcp/handler.ts')).handler as BenchHandler;
});

afterAll(async () => {
  for (const name of [
    'AWS_EXECUTION_ENV',
    'LAMBDA_TASK_ROOT',
    '_X_AMZN_TRACE_ID',
    'AWS_XRAY_DAEMON_ADDRESS',
    'RESOURCES_FUNCTION_NAME',
    'AWS_ENDPOINT_URL_LAMBDA',
  ])
    delete process.env[name];
  await new Promise<void>((resolve) => daemon?.close(() => resolve()));
  await new Promise<void>((resolve) => (lambdaApi ? lambdaApi.close(() => resolve()) : resolve()));
  await s3?.close();
});

/** Every subsegment received, nested ones included. */
const flatten = (documents: SubsegmentDocument[]): SubsegmentDocument[] =>
  documents.flatMap((d) => [d, ...flatten(d.subsegments ?? [])]);

/** Waits until the daemon has received a subsegment that `match` accepts (UDP is asynchronous). */
async function receivedWhere(match: (d: SubsegmentDocument) => boolean): Promise<SubsegmentDocument> {
  for (let i = 0; i < 200; i++) {
    const found = flatten(received).find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no such subsegment; received: ${JSON.stringify(flatten(received).map((d) => d.name))}`);
}

describe('X-Ray tracing of the MCP function', () => {
  it('puts a tool call and its S3 writes in one trace, the request subsegment annotated with the tool', async () => {
    const request = toolCallRequest('generate_report', { rows: 2_000 }, { era: 'handshake' });
    const result = (await handler(apiGatewayEvent(request), lambdaContext())) as { body: string };
    const response = JSON.parse(result.body);
    expect(response.result.content.some((b: { type: string }) => b.type === 'resource_link')).toBe(true);

    const call = await receivedWhere((d) => d.name === '## mcp request');
    expect(call).toMatchObject({
      trace_id: TRACE_ID,
      parent_id: FUNCTION_SEGMENT,
      annotations: { tool: 'generate_report', outcome: 'ok', Service: 'tracing-under-test' },
    });
    expect(typeof call.annotations!.ColdStart).toBe('boolean');
    expect(call.end_time).toBeGreaterThan(0);
    const write = await receivedWhere((d) => d.namespace === 'aws' && d.aws?.operation === 'PutObject');
    expect(write.name).toBe('S3');
    expect(write.aws?.bucket_name).toBe(s3.bucket);
    expect(write.aws).not.toHaveProperty('key');
    expect(write.trace_id ?? TRACE_ID).toBe(TRACE_ID);
    // The write is a child of the request's subsegment: inside it, or sent on its own naming it as parent.
    const inside = flatten(call.subsegments ?? []).includes(write) || write.parent_id === call.id;
    expect(inside).toBe(true);
  });

  it('invokes the companion with the trace header: this trace, the invoke subsegment as parent, sampled', async () => {
    const stored = (await handler(
      apiGatewayEvent(toolCallRequest('generate_report', { rows: 2_000 }, { era: 'handshake' })),
      lambdaContext(),
    )) as { body: string };
    const link = JSON.parse(stored.body).result.content.find(
      (b: { type: string }) => b.type === 'resource_link',
    );
    const read = (await handler(
      apiGatewayEvent(toolCallRequest('read_output', { uri: link.uri, count: 5 }, { era: 'handshake' })),
      lambdaContext(),
    )) as { body: string };
    expect(JSON.parse(read.body).result.isError).toBeUndefined();

    // The companion's own S3 read is traced with the bucket, and no subsegment of either function names the key:
    // with auth "none" the stored output's key (its URI) is what lets anyone read it.
    const companionRead = await receivedWhere(
      (d) => d.namespace === 'aws' && d.aws?.operation === 'GetObject',
    );
    expect(companionRead.aws?.bucket_name).toBe(s3.bucket);
    // The output's id, the part of its key (and URI) that no one can guess.
    const key = (link.uri as string).split('/').pop()!;
    for (const document of flatten(received)) {
      expect(Object.keys(document.aws ?? {}).map((k) => k.toLowerCase())).not.toContain('key');
      expect(JSON.stringify(document)).not.toContain(key);
    }

    const invoke = invocations.find((i) => i.functionName === COMPANION);
    expect(invoke?.invocationType ?? 'RequestResponse').toBe('RequestResponse');
    const header = traceHeader(invoke!.headers);
    expect(header).toMatchObject({ Root: TRACE_ID, Sampled: '1' });
    const subsegment = await receivedWhere((d) => d.namespace === 'aws' && d.aws?.operation === 'Invoke');
    expect(subsegment.name).toBe('Lambda');
    expect(header.Parent).toBe(subsegment.id);
  });

  it('starts the worker with the trace header too (the same instrumented Lambda client, an Event invoke)', async () => {
    const xrayTracing = await (await import('@mcp-lambda/server/lambda')).loadXrayTracing();
    const { lambdaTaskLauncher } = await import('@mcp-lambda/server/aws');
    // The MCP function's wiring (createMcpFunction), outside a request: the trace is the invocation's.
    const launch = lambdaTaskLauncher({
      functionName: 'worker-under-test',
      instrument: xrayTracing('tracing-under-test').instrument,
    });
    await launch({
      version: 1,
      taskId: 'task-1',
      round: 1,
      era: 'handshake',
      protocolVersion: '2025-06-18',
      clientCapabilities: {},
    });
    const invoke = invocations.find((i) => i.functionName === 'worker-under-test');
    expect(invoke?.invocationType).toBe('Event');
    expect(traceHeader(invoke!.headers)).toMatchObject({ Root: TRACE_ID, Sampled: '1' });
  });
});

/** The fields of an `X-Amzn-Trace-Id` header (`Root=…;Parent=…;Sampled=…`). */
function traceHeader(headers: IncomingHttpHeaders): Record<string, string> {
  const value = headers['x-amzn-trace-id'];
  expect(typeof value, 'the Invoke request carries X-Amzn-Trace-Id').toBe('string');
  return Object.fromEntries(
    (value as string).split(';').map((field) => field.split('=', 2) as [string, string]),
  );
}
