import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startLocalDynamo,
  startOtlpReceiver,
  startTestS3,
  type LocalDynamo,
  type OtlpReceiver,
  type ReceivedSpan,
  type RunningServer,
  type TestS3,
} from '@mcp-lambda/dev/testing';
import { serveMcpFunction } from '../support/local.ts';

/**
 * One trace across the three functions (MCP_TRACING=on, OTLP to a receiver started here): the real MCP function
 * starts a task run in the worker function and reads a stored output through the companion function, each over the
 * Lambda Invoke API (a loopback stand-in that runs the real handlers, as Lambda would); the worker's and the
 * companion's spans continue the trace of the call that invoked them, which continues the client's.
 */

const WORKER = 'worker-under-test';
const COMPANION = 'companion-under-test';
const TASKS = 'io.modelcontextprotocol/tasks';
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';

let s3: TestS3;
let dynamo: LocalDynamo;
let receiver: OtlpReceiver;
let lambda: Server;
let mcp: RunningServer;
const runs: Promise<unknown>[] = [];

/** The Invoke API: an Event runs the worker after its 202, a RequestResponse runs the companion and answers. */
async function startLambdaApi(): Promise<string> {
  const worker = (await import('../../functions/worker/handler.ts')).handler;
  const companion = (await import('../../functions/companion/handler.ts')).handler;
  lambda = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const name = decodeURIComponent(/\/functions\/([^/]+)\/invocations/.exec(req.url ?? '')?.[1] ?? '');
    const deadline = Date.now() + 60_000;
    const context = {
      awsRequestId: randomUUID(),
      getRemainingTimeInMillis: () => deadline - Date.now(),
    } as Context;
    if (name === WORKER) {
      res.writeHead(202).end();
      runs.push(worker(payload, context));
      return;
    }
    const answer = await companion(payload, context);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  [s3, dynamo, receiver] = await Promise.all([startTestS3(), startLocalDynamo(), startOtlpReceiver()]);
  Object.assign(process.env, {
    ...s3.env(),
    OFFLOAD_THRESHOLD_BYTES: '1024',
    TASKS_TABLE: dynamo.tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    MCP_TRACING: 'on',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    TASKS_WORKER_FUNCTION_NAME: WORKER,
    RESOURCES_FUNCTION_NAME: COMPANION,
  });
  process.env.AWS_ENDPOINT_URL_LAMBDA = await startLambdaApi();
  mcp = await serveMcpFunction();
});

afterAll(async () => {
  await Promise.allSettled(runs);
  for (const name of [
    'MCP_TRACING',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'TASKS_WORKER_FUNCTION_NAME',
    'RESOURCES_FUNCTION_NAME',
    'AWS_ENDPOINT_URL_LAMBDA',
  ])
    delete process.env[name];
  await mcp?.close();
  await new Promise((resolve) => lambda?.close(resolve));
  await Promise.all([dynamo?.close(), s3?.close(), receiver?.close()]);
});

async function call(method: string, params: Record<string, unknown>, clientSpan: string) {
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
          traceparent: `00-${CLIENT_TRACE}-${clientSpan}-01`,
        },
      },
    }),
  });
  return (await res.json()) as { result?: any; error?: any };
}

/** Whether `span` is under the span `ancestor` (its parent, or its parent's, and so on). */
function descendsFrom(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: string): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId))
    if (at.parentSpanId === ancestor) return true;
  return false;
}

describe('MCP_TRACING=on across the MCP, worker and companion functions', () => {
  it('a task run in the worker and a read through the companion join the trace of the calls that started them', async () => {
    const started = await call(
      'tools/call',
      { name: 'generate_report', arguments: { rows: 500, seed: 3 } },
      'aaaaaaaaaaaaaaaa',
    );
    await Promise.all(runs);
    // Ready within its 2 s it comes back directly; on a busy machine as a task, whose result is then read.
    const result =
      started.result.resultType === 'task'
        ? (await call('tasks/get', { taskId: started.result.taskId }, 'cccccccccccccccc')).result.result
        : started.result;
    const spans = await receiver.waitFor((all) => all.some((s) => s.name === 'tasks/run'));
    const server = spans.find((s) => s.parentSpanId === 'aaaaaaaaaaaaaaaa')!;
    expect(server).toMatchObject({ name: 'tools/call generate_report', traceId: CLIENT_TRACE });
    const inTrace = spans.filter((s) => s.traceId === CLIENT_TRACE);
    const invoke = inTrace.find((s) => s.name === 'Lambda.Invoke' && s.parentSpanId === server.spanId);
    expect(invoke).toMatchObject({ kind: 3, attributes: { 'faas.invoked_name': WORKER } });
    const run = inTrace.find((s) => s.name === 'tasks/run')!;
    expect(descendsFrom(spans, run, server.spanId)).toBe(true);
    expect(run).toMatchObject({ kind: 5, resource: { 'service.name': expect.stringMatching(/-worker$/) } });
    const runChildren = inTrace.filter((s) => s.parentSpanId === run.spanId).map((s) => s.name);
    expect(runChildren).toContain('execute_tool generate_report');
    expect(runChildren.some((name) => name.startsWith('DynamoDB.'))).toBe(true);

    const uri = result.content.find((b: { type: string }) => b.type === 'resource_link').uri as string;
    await call('tools/call', { name: 'read_output', arguments: { uri } }, 'bbbbbbbbbbbbbbbb');
    const read = await receiver.waitFor((all) => all.some((s) => s.name === 'companion read'));
    const readServer = read.find((s) => s.parentSpanId === 'bbbbbbbbbbbbbbbb')!;
    const companion = read.find((s) => s.name === 'companion read')!;
    expect(companion).toMatchObject({
      traceId: CLIENT_TRACE,
      kind: 5,
      resource: { 'service.name': expect.stringMatching(/-resources$/) },
    });
    expect(descendsFrom(read, companion, readServer.spanId)).toBe(true);
    expect(read.some((s) => s.name.startsWith('S3.') && s.parentSpanId === companion.spanId)).toBe(true);
    expect(JSON.stringify(read, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(uri);
  });
});
