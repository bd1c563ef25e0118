import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, TASKS_EXTENSION } from '../../src/index.ts';
import { silentLogger, type McpServerOptions } from '../../src/faces/lambda.ts';
import { dynamoTaskStore, lambdaTaskLauncher } from '../../src/faces/aws.ts';
import type { TaskJob, TaskStore } from '../../src/faces/backend.ts';
import { taskJobPayload } from '../../src/tasks/launchers.ts';
import { createTaskWorker } from '../../src/faces/worker.ts';
import {
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  type LocalDynamo,
  serveServer,
  type RunningServer,
  statelessHeaders,
  statelessMeta,
  silentEndpoint,
  type SilentEndpoint,
} from '@mcp-lambda/dev/testing';

/**
 * The tasks extension keeps the deadline rule: a task table (DynamoDB) or a worker start (an asynchronous Lambda
 * invoke) that accepts connections and never answers costs the client an honest -32603 within the invocation's
 * deadline, and the worker's own store calls end before its deadline too.
 */

/** The simulated Lambda time limit of these servers: answers must arrive before it. */
const DEADLINE_MS = 4_000;
/** Far beyond the deadline: only the deadline's signal can end calls in time. */
const SDK_TIMEOUTS = { connectionTimeoutMs: 60_000, requestTimeoutMs: 60_000 };

let silent: SilentEndpoint;
let dynamo: LocalDynamo;
const servers: RunningServer[] = [];

const tools = [
  defineTool({ name: 'small', description: 'a plain answer', handler: () => 'still here' }),
  defineTool({
    name: 'report',
    description: 'runs as a task',
    task: { mode: 'required' },
    handler: () => 'done',
  }),
];

/** The task table on the endpoint that never answers. */
const silentStore = (): TaskStore =>
  dynamoTaskStore({
    table: 'tasks',
    endpoint: silent.url,
    credentials: LOCAL_DYNAMO_CREDENTIALS,
    ...SDK_TIMEOUTS,
  });

async function serve(tasks: McpServerOptions['tasks']): Promise<RunningServer> {
  const server = await serveServer(
    { info: { name: 'task-deadlines', version: '1.0.0' }, tools, tasks },
    { timeoutMs: DEADLINE_MS },
  );
  servers.push(server);
  return server;
}

/** A 2026-07-28 request that declares the tasks extension. */
async function call(url: string, method: string, params: Record<string, unknown>) {
  const name = (params.name ?? params.taskId) as string;
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...statelessHeaders(method, name),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          ...statelessMeta(),
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
        },
      },
    }),
  });
  return { status: res.status, json: (await res.json()) as any, ms: performance.now() - started };
}

const TASK_ID = 'a'.repeat(32);

beforeAll(async () => {
  silent = await silentEndpoint();
  dynamo = await startLocalDynamo('task-deadlines');
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await silent.close();
  await dynamo.close();
});

describe('a task table that accepts connections and never answers', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // The worker start would answer at once: only the table is slow.
    server = await serve({ store: silentStore(), launch: async () => undefined });
  });

  it('a tools/call that must create a task answers -32603 before the deadline', async () => {
    const before = silent.connections();
    const res = await call(server.url, 'tools/call', { name: 'report' });
    expect(silent.connections()).toBeGreaterThan(before);
    expect(res.json.error).toMatchObject({ code: -32603 });
    expect(res.ms).toBeLessThan(DEADLINE_MS);
  });

  it.each(['tasks/get', 'tasks/cancel'])('%s answers -32603 before the deadline', async (method) => {
    const res = await call(server.url, method, { taskId: TASK_ID });
    expect(res.json.error).toMatchObject({ code: -32603 });
    expect(res.ms).toBeLessThan(DEADLINE_MS);
  });

  it('tasks/update answers -32603 before the deadline', async () => {
    const res = await call(server.url, 'tasks/update', { taskId: TASK_ID, inputResponses: { ok: {} } });
    expect(res.json.error).toMatchObject({ code: -32603 });
    expect(res.ms).toBeLessThan(DEADLINE_MS);
  });

  it('the same server answers the next call at once', async () => {
    const res = await call(server.url, 'tools/call', { name: 'small' });
    expect(res.json.result).toMatchObject({ content: [{ type: 'text', text: 'still here' }] });
    expect(res.ms).toBeLessThan(DEADLINE_MS / 2);
  });
});

describe('a worker start (asynchronous Lambda invoke) that never answers', () => {
  const created: string[] = [];
  let store: TaskStore;
  let server: RunningServer;
  beforeAll(async () => {
    const table = dynamoTaskStore({
      table: dynamo.tableName,
      endpoint: dynamo.endpoint,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
    });
    store = {
      ...table,
      create: (record, options) => {
        created.push(record.taskId);
        return table.create(record, options);
      },
    };
    const launch = lambdaTaskLauncher({
      functionName: 'worker',
      endpoint: silent.url,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
    });
    server = await serve({ store, launch });
  });

  it('a tools/call answers -32603 before the deadline, and the task is recorded failed', async () => {
    const before = silent.connections();
    const res = await call(server.url, 'tools/call', { name: 'report' });
    expect(silent.connections()).toBeGreaterThan(before);
    expect(res.json.error).toMatchObject({ code: -32603 });
    expect(res.ms).toBeLessThan(DEADLINE_MS);
    expect(created).toHaveLength(1);
    // Never left waiting for a worker that will not come: a start Lambda accepted anyway finds it failed.
    expect(await store.get({ taskId: created[0]! })).toMatchObject({ status: 'failed' });
  });

  it('tasks/get of that task answers at once that it failed', async () => {
    const res = await call(server.url, 'tasks/get', { taskId: created[0]! });
    expect(res.json.result).toMatchObject({ taskId: created[0], status: 'failed' });
    expect(res.ms).toBeLessThan(DEADLINE_MS / 2);
  });
});

describe('the task worker with a task table that never answers', () => {
  it('ends its invocation with a store failure before its deadline', async () => {
    const worker = createTaskWorker({ tools, store: silentStore(), log: silentLogger });
    const job: TaskJob = {
      version: 1,
      taskId: TASK_ID,
      round: 1,
      era: 'stateless',
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
    };
    const deadline = Date.now() + DEADLINE_MS;
    const context = { awsRequestId: randomUUID(), getRemainingTimeInMillis: () => deadline - Date.now() };
    const started = performance.now();
    // The worker gets the job as the invocation payload carries it.
    await expect(worker(JSON.parse(taskJobPayload(job)), context as Context)).rejects.toThrow(
      /task store get failed/,
    );
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS);
  });
});
