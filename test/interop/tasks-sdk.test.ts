import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  Client as Client2,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport as Transport2,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, TASKS_EXTENSION, type ToolDefinition } from '@mcp-lambda/server';
import { loadOAuthAuthenticator } from '@mcp-lambda/server/lambda';
import { dynamoTaskStore, taskJobPayload } from '@mcp-lambda/server/aws';
import { memoryTaskStore, type TaskJob } from '@mcp-lambda/server/backend';
import { conformanceTaskTools } from '../conformance/fixtures/tasks.ts';
import {
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  type LocalDynamo,
  startIssuer,
  type TestIssuer,
  serveServer,
  type RunningServer,
} from '@mcp-lambda/dev/testing';
import { finalResponse, recordingFetch } from './wire.ts';

// The tasks extension with the official SDK 2.x client (2026-07-28). SDK 2.4 has no tasks runtime: `callTool`
// meets a CreateTaskResult with its typed UnsupportedResultType error (data.resultType "task"), so the tests read
// the task handle the server sent from the recorded wire, and then drive the task through the client's own request
// API (`tasks/get`, `tasks/cancel` with explicit result schemas, the path the SDK keeps open for SEP-2663).

const RESOURCE = 'https://mcp.example.com/mcp';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What tasks/get answers (SEP-2663 DetailedTask), as the test checks it. */
const DetailedTask = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'cancelled', 'failed']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.number().nullable(),
  pollIntervalMs: z.number().optional(),
  result: z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});
const Ack = z.looseObject({});

/** Tools that show what a task's run saw: how long it ran, and whether its signal fired. */
const aborted: string[] = [];
const probeTools: ToolDefinition[] = [
  defineTool({
    name: 'long_report',
    description: 'Works for 40 s (longer than an HTTP API waits), reporting progress, then returns',
    task: { mode: 'required' },
    timeoutMs: 120_000,
    handler: async (_args, ctx) => {
      for (let second = 0; second < 40; second += 5) {
        ctx.progress(second, 40, 'building the report');
        await sleep(5_000);
      }
      return 'Report ready: 40 s of work.';
    },
  }),
  defineTool({
    name: 'watch_cancel',
    description: 'Waits until stopped and records that its signal fired',
    task: { mode: 'required' },
    timeoutMs: 120_000,
    handler: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener('abort', () => {
          aborted.push(String(ctx.signal.reason));
          reject(ctx.signal.reason);
        }),
      ),
  }),
];

/** A 2026-07-28 SDK 2.x client that declares the tasks extension, with a bearer token and a wire recording. */
async function connect(url: string, token?: string) {
  const wire = recordingFetch();
  const client = new Client2(
    { name: 'interop-tasks', version: '2.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
  const authorized: typeof fetch = (input, init) =>
    wire.fetch(input, {
      ...init,
      headers: {
        ...Object.fromEntries(new Headers(init?.headers)),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
  await client.connect(new Transport2(new URL(url), { fetch: authorized }));
  return {
    client,
    /** Calls a task tool; returns the task id of the CreateTaskResult the server answered with. */
    async start(name: string, args: Record<string, unknown> = {}): Promise<string> {
      const error = await client.callTool({ name, arguments: args }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe(SdkErrorCode.UnsupportedResultType);
      expect((error as SdkError).data).toMatchObject({ resultType: 'task' });
      const created = finalResponse(wire.calls('tools/call').at(-1)!)!.result;
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      expect(created.taskId).toMatch(/^[0-9a-f]{32}$/);
      return created.taskId as string;
    },
    get: (taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, DetailedTask),
    cancel: (taskId: string) => client.request({ method: 'tasks/cancel', params: { taskId } }, Ack),
    /** Polls tasks/get (at the suggested interval, at most `ms`) until the task ends. */
    async settled(taskId: string, ms = 15_000) {
      const until = Date.now() + ms;
      for (;;) {
        const task = await client.request({ method: 'tasks/get', params: { taskId } }, DetailedTask);
        if (['completed', 'failed', 'cancelled'].includes(task.status) || Date.now() > until) return task;
        await sleep(Math.min(task.pollIntervalMs ?? 1_000, 500));
      }
    },
    wire,
  };
}

/** The JSON-RPC error a request was answered with. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ProtocolError,
  );

let issuer: TestIssuer;
let server: RunningServer;
let alice: Awaited<ReturnType<typeof connect>>;
let bob: Awaited<ReturnType<typeof connect>>;
let longTask: { id: string; startedAt: number };

beforeAll(async () => {
  issuer = await startIssuer({ audience: RESOURCE, scope: 'mcp' });
  server = await serveServer({
    info: { name: 'tasks-interop', version: '1.0.0' },
    tools: [...conformanceTaskTools, ...probeTools],
    tasks: { store: memoryTaskStore(), pollIntervalMs: 500, inProcess: { heartbeatMs: 200 } },
    auth: (await loadOAuthAuthenticator())({
      issuer: issuer.issuer,
      resource: RESOURCE,
      requiredScopes: ['mcp'],
    }),
  });
  alice = await connect(server.url, await issuer.token({ sub: 'alice' }));
  bob = await connect(server.url, await issuer.token({ sub: 'bob' }));
  longTask = { id: await alice.start('long_report'), startedAt: Date.now() };
});

afterAll(async () => {
  await alice?.client.close();
  await bob?.client.close();
  await server?.close();
  await issuer?.close();
});

describe('tasks with the SDK 2.x client (2026-07-28, tasks extension)', () => {
  it('a task is readable the moment its CreateTaskResult arrives, with its TTL and poll interval', async () => {
    const task = await alice.get(longTask.id);
    expect(task).toMatchObject({
      taskId: longTask.id,
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 500,
    });
    expect(task.resultType).toBeUndefined(); // the SDK strips the wire discriminator ("complete")
    const exchange = alice.wire.calls('tasks/get').at(-1)!;
    expect(exchange.requestHeaders['mcp-name']).toBe(longTask.id);
    expect(finalResponse(exchange)!.result.resultType).toBe('complete');
  });

  it('another caller asking for the task gets "not found", exactly as for an id that never existed', async () => {
    const foreign = await rejection(bob.get(longTask.id));
    const unknown = await rejection(bob.get('0123456789abcdef0123456789abcdef'));
    expect(foreign).toBeInstanceOf(ProtocolError);
    expect([foreign!.code, unknown!.code]).toEqual([-32602, -32602]);
    expect(foreign!.message.replace(longTask.id, 'ID')).toBe(
      unknown!.message.replace('0123456789abcdef0123456789abcdef', 'ID'),
    );
    expect((await rejection(bob.cancel(longTask.id)))!.code).toBe(-32602);
    expect((await alice.get(longTask.id)).status).toBe('working');
  });

  it('cancellation acknowledges at once, the task reads cancelled, and the running tool is stopped', async () => {
    aborted.length = 0;
    const id = await alice.start('watch_cancel');
    await sleep(300);
    // An empty acknowledgement: no task fields, only the server info every 2026-07-28 result carries.
    expect(await alice.cancel(id)).toEqual({ _meta: expect.any(Object) });
    expect((await alice.get(id)).status).toBe('cancelled');
    for (let i = 0; i < 50 && aborted.length === 0; i++) await sleep(50);
    expect(aborted).toEqual(['AbortError: cancelled']);
    await sleep(500);
    expect((await alice.get(id)).status).toBe('cancelled');
    expect(await alice.cancel(id)).toEqual({ _meta: expect.any(Object) });
  });

  it('a tool error ends the task completed with isError, not failed', async () => {
    const task = await alice.settled(await alice.start('failing_job'));
    expect(task.status).toBe('completed');
    expect(task.result).toMatchObject({ isError: true });
  });

  it('a tool that runs 40 s, longer than the HTTP API allows, completes as a task and its result reads back', async () => {
    const midway = await alice.get(longTask.id);
    expect(midway.status).toBe('working');
    expect(midway.statusMessage).toMatch(/^building the report \(\d+ of 40\)$/);
    const task = await alice.settled(longTask.id, 60_000);
    expect(Date.now() - longTask.startedAt).toBeGreaterThanOrEqual(39_000);
    expect(task).toMatchObject({
      taskId: longTask.id,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Report ready: 40 s of work.' }] },
    });
    expect(task.result!._meta).toBeUndefined();
    expect(task.statusMessage).toBeUndefined();
  }, 70_000);
});

describe('a task whose worker is killed', () => {
  let dynamo: LocalDynamo;
  let killable: RunningServer;
  let worker: ChildProcess | undefined;
  let skewMs = 0;

  beforeAll(async () => {
    dynamo = await startLocalDynamo();
    const script = fileURLToPath(new URL('../support/task-worker-process.ts', import.meta.url));
    killable = await serveServer({
      info: { name: 'tasks-killed-worker', version: '1.0.0' },
      tools: conformanceTaskTools,
      tasks: {
        store: dynamoTaskStore({
          table: dynamo.tableName,
          endpoint: dynamo.endpoint,
          credentials: LOCAL_DYNAMO_CREDENTIALS,
        }),
        // Each run in a Node.js process of its own, as Lambda would run the worker function.
        launch: async (job: TaskJob) => {
          worker = spawn(process.execPath, ['--import', 'tsx', script], {
            env: {
              ...process.env,
              // As the Lambda launcher sends it (the era by its wire name).
              TASK_JOB: taskJobPayload(job),
              TASKS_TABLE: dynamo.tableName,
              DYNAMODB_ENDPOINT: dynamo.endpoint,
            },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
        },
        // The server's clock, moved on instead of waiting out the 30 s lease in real time.
        now: () => Date.now() + skewMs,
      },
    });
  });

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await killable?.close();
    await dynamo?.close();
  });

  it('reads failed with a safe message once the lease lapses, and stays failed', async () => {
    const client = await connect(killable.url);
    const id = await client.start('slow_compute', { seconds: 120, label: 'doomed' });
    const running = new Promise<void>((resolve) => worker!.stdout!.once('data', () => resolve()));
    await running;
    // The worker claims the run and renews its lease; then it dies without a word.
    for (let i = 0; i < 100; i++) {
      if ((await client.get(id)).statusMessage) break;
      await sleep(100);
    }
    worker!.kill('SIGKILL');
    expect((await client.get(id)).status).toBe('working');
    skewMs = 31_000;
    const task = await client.get(id);
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(task.error!.message).toMatch(
      /^The task stopped before it finished: its worker crashed or ran out of time/,
    );
    expect(task.error!.message).not.toMatch(/\/|at \w+ \(/);
    expect(task.result).toBeUndefined();
    skewMs = 0;
    expect((await client.get(id)).status).toBe('failed');
    await client.client.close();
    // The worker is a Node.js process of its own that loads its TypeScript with tsx: on a loaded machine (CI beside
    // the stress step) it takes many seconds to start. Nothing waits on a fixed time: the lease is skewed, not slept.
  }, 120_000);
});

describe('expiry', () => {
  let short: RunningServer;

  beforeAll(async () => {
    short = await serveServer({
      info: { name: 'tasks-expiry', version: '1.0.0' },
      tools: conformanceTaskTools,
      tasks: { store: memoryTaskStore(), ttlMs: 8_000 },
    });
  });
  afterAll(() => short?.close());

  it('a task stays readable for its whole ttlMs, then disappears like an unknown id', async () => {
    const client = await connect(short.url);
    const id = await client.start('slow_compute', { seconds: 0 });
    const created = Date.parse((await client.get(id)).createdAt);
    // Read late in its life, but 3 s before it ends: a loaded machine's late timers and slow answers fit in that.
    await sleep(Math.max(0, created + 5_000 - Date.now()));
    expect((await client.get(id)).status).toBe('completed');
    await sleep(Math.max(0, created + 8_050 - Date.now()));
    expect((await rejection(client.get(id)))!.code).toBe(-32602);
    await client.client.close();
  }, 30_000);
});
