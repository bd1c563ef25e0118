import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  type LocalDynamo,
  type RunningServer,
} from '@mcp-lambda/dev/testing';
import { serveMcpFunction } from '../support/local.ts';

// The deployed arrangement of the tasks extension, with the real entry points: the MCP function
// (functions/mcp/handler.ts) keeps task records in DynamoDB (dynalite here) and starts each run by an asynchronous
// Lambda invocation (@aws-sdk/client-lambda, pointed at a loopback stand-in for the Invoke API that answers 202
// and then runs the real worker handler, functions/worker/handler.ts, as Lambda's event queue would).

const WORKER = 'mcp-task-worker';
const TASKS = 'io.modelcontextprotocol/tasks';

let dynamo: LocalDynamo;
let mcp: RunningServer;
let lambda: Server;
let startDelayMs = 0;
const invocations: { name: string; type: string | undefined; payload: any; done?: Promise<void> }[] = [];
let id = 0;

async function startLambdaApi(): Promise<string> {
  const { handler } = await import('../../functions/worker/handler.ts');
  lambda = createServer(async (req, res) => {
    const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !match) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const record: (typeof invocations)[number] = {
      name: decodeURIComponent(match[1]!),
      type: req.headers['x-amz-invocation-type'] as string | undefined,
      payload,
    };
    invocations.push(record);
    // Accepted for later, as Lambda's asynchronous queue does; the run happens after the answer.
    res.writeHead(202).end();
    const deadline = Date.now() + 900_000;
    record.done = new Promise((resolve) => setTimeout(resolve, startDelayMs)).then(() =>
      handler(payload, {
        awsRequestId: randomUUID(),
        getRemainingTimeInMillis: () => deadline - Date.now(),
      } as Context),
    );
  });
  await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`;
}

async function call(method: string, params: Record<string, unknown>) {
  const name = (params.name ?? params.taskId) as string | undefined;
  const res = await fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } },
        },
      },
    }),
  });
  return (await res.json()) as { result?: any; error?: any };
}

beforeAll(async () => {
  dynamo = await startLocalDynamo();
  Object.assign(process.env, {
    TASKS_TABLE: dynamo.tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_ACCESS_KEY_ID: LOCAL_DYNAMO_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_DYNAMO_CREDENTIALS.secretAccessKey,
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  const lambdaUrl = await startLambdaApi();
  mcp = await serveMcpFunction({ TASKS_WORKER_FUNCTION_NAME: WORKER, AWS_ENDPOINT_URL_LAMBDA: lambdaUrl });
});

afterAll(async () => {
  await Promise.all(invocations.map((i) => i.done));
  await mcp?.close();
  await new Promise((resolve) => lambda?.close(resolve));
  await dynamo?.close();
});

describe('tasks in the deployed arrangement (DynamoDB records, an asynchronously invoked worker)', () => {
  it('a report ready within its 2 s comes back directly, though the worker built it', async () => {
    startDelayMs = 0;
    const before = invocations.length;
    const res = await call('tools/call', { name: 'generate_report', arguments: { rows: 3, seed: 7 } });
    expect(res.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });
    expect(res.result.content[0].text.split('\n')[0]).toBe('id,date,region,units,unit_price,total');
    expect(invocations.slice(before)).toEqual([
      expect.objectContaining({
        name: WORKER,
        type: 'Event',
        payload: expect.objectContaining({
          version: 1,
          round: 1,
          era: 'modern', // the era's name between the functions (eraToWire)
          protocolVersion: '2026-07-28',
        }),
      }),
    ]);
  });

  it('a report whose worker starts late is answered with a task, and tasks/get reads its result from DynamoDB', async () => {
    startDelayMs = 2_500;
    const res = await call('tools/call', { name: 'generate_report', arguments: { rows: 2, seed: 1 } });
    expect(res.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000 });
    const { taskId } = res.result;
    expect((await call('tasks/get', { taskId })).result).toMatchObject({
      resultType: 'complete',
      status: 'working',
    });
    await invocations.at(-1)!.done;
    const done = (await call('tasks/get', { taskId })).result;
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text' }] } });
    expect(done.result.content[0].text.trim().split('\n')).toHaveLength(3);
  }, 15_000);

  it('the worker ignores a payload that is not a task job', async () => {
    const { handler } = await import('../../functions/worker/handler.ts');
    await expect(handler({ hello: 'world' }, { awsRequestId: 'x' } as Context)).resolves.toBeUndefined();
  });
});
