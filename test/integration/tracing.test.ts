import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGatewayEvent, lambdaContext, type BenchHandler } from '../bench/lambda-event.ts';
import { toolCallRequest } from '../load/mcp-request.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';

/**
 * X-Ray tracing end to end: the real MCP function (`functions/mcp/handler.ts`) with MCP_TRACING on, in what
 * Powertools Tracer and the X-Ray SDK take for a Lambda environment with a sampled trace, answers a tool call that
 * stores its output in S3; the subsegments it sends to the X-Ray daemon address (local UDP, as on Lambda) are read
 * back: the request's subsegment annotated with the tool, and the S3 writes inside the same trace.
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
  aws?: { operation?: string };
  subsegments?: SubsegmentDocument[];
  end_time?: number;
}

let s3: TestS3;
let daemon: Socket;
let handler: BenchHandler;
const received: SubsegmentDocument[] = [];

beforeAll(async () => {
  s3 = await startTestS3();
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    // Each datagram: a JSON header line, then one segment document.
    const [, document] = message.toString('utf8').split('\n');
    if (document) received.push(JSON.parse(document) as SubsegmentDocument);
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    ...s3.env(),
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    MCP_TRACING: 'on',
    MCP_SERVER_NAME: 'tracing-under-test',
    // What the Lambda runtime sets: the environment, and the invocation's trace header (sampled).
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    LAMBDA_TASK_ROOT: '/var/task',
    AWS_LAMBDA_FUNCTION_NAME: 'tracing-under-test',
    _X_AMZN_TRACE_ID: `Root=${TRACE_ID};Parent=${FUNCTION_SEGMENT};Sampled=1`,
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
  });
  delete process.env.POWERTOOLS_DEV;
  handler = (await import('../../functions/mcp/handler.ts')).handler as BenchHandler;
});

afterAll(async () => {
  for (const name of ['AWS_EXECUTION_ENV', 'LAMBDA_TASK_ROOT', '_X_AMZN_TRACE_ID', 'AWS_XRAY_DAEMON_ADDRESS'])
    delete process.env[name];
  await new Promise<void>((resolve) => daemon?.close(() => resolve()));
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
    const request = toolCallRequest('generate_report', { rows: 2_000 }, { era: 'legacy' });
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
    expect(write.trace_id ?? TRACE_ID).toBe(TRACE_ID);
    // The write is a child of the request's subsegment: inside it, or sent on its own naming it as parent.
    const inside = flatten(call.subsegments ?? []).includes(write) || write.parent_id === call.id;
    expect(inside).toBe(true);
  });
});
