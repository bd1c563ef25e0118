/**
 * Part 8: what one `tasks/get` poll costs. Our bundled MCP function runs behind the local server with its task
 * records in a local DynamoDB (dynalite on loopback), as the deployed function keeps them in DynamoDB; a client
 * polls a working task and a completed one (a 1 KB result inlined), one request at a time. For scale: the bare
 * strongly consistent GetItem of the same record, and a tools/call ping through the same server.
 */
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { TASKS_EXTENSION } from '@mcp-lambda/server';
import { dynamoTaskStore } from '@mcp-lambda/server/aws';
import type { TaskRecord } from '@mcp-lambda/server/backend';
import { newRecord, newTaskId, settle } from '../../packages/server/src/tasks/policy.ts';
import { storageKey } from '../../packages/server/src/tasks/store.ts';
import { LOCAL_DYNAMO_CREDENTIALS, startLocalDynamo } from '@mcp-lambda/dev/testing';
import type { Artifacts } from './bundle.ts';
import { startServeChild } from './serve-child.ts';
import type { ChildRuntime } from './probe.ts';
import type { TaskPollResult } from './results.ts';
import { median, percentile } from './stats.ts';

const WARMUP = 50;

/** A 2026-07-28 request declaring the tasks extension, with its routing headers. */
function request(url: string, method: string, params: Record<string, unknown>, name: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
        },
      },
    }),
  });
}

/** Latencies of `n` sequential runs of `once` (after a warm-up), with a check of every answer. */
async function timed(n: number, once: () => Promise<boolean>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) if (!(await once())) throw new Error('a warm-up answer was wrong');
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const ok = await once();
    samples.push(performance.now() - t0);
    if (!ok) throw new Error('an answer was wrong');
  }
  return samples;
}

const row = (label: string, samples: number[]): TaskPollResult => ({
  label,
  polls: samples.length,
  p50Ms: Math.round(median(samples) * 100) / 100,
  p99Ms: Math.round(percentile(samples, 99) * 100) / 100,
});

/** Seeds a working and a completed task in the table, then measures polls of each through the bundled function. */
export async function measureTaskPolls(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  polls: number,
  progress: (message: string) => void,
): Promise<TaskPollResult[]> {
  const dynamo = await startLocalDynamo('bench-tasks');
  const store = dynamoTaskStore({
    table: dynamo.tableName,
    endpoint: dynamo.endpoint,
    credentials: LOCAL_DYNAMO_CREDENTIALS,
  });
  const seed = (now: number): TaskRecord =>
    newRecord({
      taskId: newTaskId(),
      tool: 'generate_report',
      arguments: { rows: 20 },
      now,
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
    });
  const working = { ...seed(Date.now()), leaseUntil: Date.now() + 3_600_000 };
  const done = settle(
    { ...seed(Date.now()), claimedRound: 1 },
    1,
    { kind: 'result', result: { content: [{ type: 'text', text: 'x'.repeat(1024) }] } },
    Date.now(),
  )!;
  await store.create(working);
  await store.create(done);
  const server = await startServeChild(runtime, artifacts, artifacts.servers.ours.file, {
    TASKS_TABLE: dynamo.tableName,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_ACCESS_KEY_ID: LOCAL_DYNAMO_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_DYNAMO_CREDENTIALS.secretAccessKey,
    AWS_REGION: 'us-east-1',
  });
  const client = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_DYNAMO_CREDENTIALS,
  });
  try {
    const poll = (task: TaskRecord, status: string) => async () => {
      const res = await request(server.url, 'tasks/get', { taskId: task.taskId }, task.taskId);
      const body = (await res.json()) as { result?: { status?: string } };
      return res.status === 200 && body.result?.status === status;
    };
    progress('tasks: polling a working task');
    const onWorking = await timed(polls, poll(working, 'working'));
    progress('tasks: polling a completed task');
    const onCompleted = await timed(polls, poll(done, 'completed'));
    progress('tasks: GetItem alone, and a tools/call ping for scale');
    const getItem = await timed(polls, async () => {
      const out = await client.send(
        new GetItemCommand({
          TableName: dynamo.tableName,
          Key: { pk: { S: storageKey(done) } },
          ConsistentRead: true,
        }),
      );
      return out.Item !== undefined;
    });
    const ping = await timed(polls, async () => {
      const res = await request(server.url, 'tools/call', { name: 'ping', arguments: {} }, 'ping');
      return res.status === 200 && (await res.text()).includes('pong');
    });
    return [
      row('tasks/get, working task', onWorking),
      row('tasks/get, completed task (1 KB result inlined)', onCompleted),
      row('DynamoDB GetItem alone (consistent read, same record)', getItem),
      row('tools/call ping through the same server, for scale', ping),
    ];
  } finally {
    client.destroy();
    await server.stop();
    await dynamo.close();
  }
}
