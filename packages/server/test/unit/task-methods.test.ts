import { describe, expect, it } from 'vitest';
import { defineTool, inputRequired, TASKS_EXTENSION } from '../../src/index.ts';
import { createMcpServer, type McpServerOptions } from '../../src/faces/lambda.ts';
import { memoryTaskStore } from '../../src/faces/backend.ts';
import { TASK_METHODS } from '../../src/methods/lazy-tasks.ts';
import { taskMethods } from '../../src/methods/tasks.ts';
import type { TaskRuntime } from '../../src/tasks/runtime.ts';
import { statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

// The tasks extension through the transport and dispatcher (no network): who gets a task, era rules, the
// immediate-result shortcut, the prepare step and failures to start a worker.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  defineTool({ name: 'plain', description: 'never a task', handler: () => 'plain' }),
  defineTool({
    name: 'maybe',
    description: 'optional task, answers directly when done within 1 s',
    inputSchema: {
      type: 'object',
      properties: { ms: { type: 'number' }, blob: { type: 'string' } },
    } as const,
    task: { mode: 'optional', afterMs: 1_000 },
    handler: async ({ ms = 0 }) => {
      await sleep(ms);
      return `slept ${ms}`;
    },
  }),
  defineTool({
    name: 'only',
    description: 'required task',
    task: { mode: 'required' },
    handler: () => 'done',
  }),
  defineTool({
    name: 'asks_first',
    description: 'confirms in the request, then runs as a task',
    task: {
      mode: 'optional',
      prepare: (_args, ctx) =>
        ctx.inputResponses?.ok
          ? undefined
          : inputRequired({ ok: { method: 'elicitation/create', params: {} } }),
    },
    handler: (_args, ctx) => `confirmed: ${JSON.stringify(ctx.inputResponses?.ok)}`,
  }),
];

const serverWith = (tasks: McpServerOptions['tasks'] = { store: memoryTaskStore() }) =>
  createMcpServer({ info: { name: 'unit', version: '1.0.0' }, tools, tasks });

const withTasks = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };

/** A 2026-07-28 request, declaring the tasks extension unless `capabilities` says otherwise. */
function stateless(
  server: ReturnType<typeof serverWith>,
  method: string,
  params: Record<string, unknown>,
  capabilities: object = withTasks,
) {
  const name = (params.name ?? params.taskId) as string | undefined;
  return send(server, {
    headers: statelessHeaders(method, name),
    body: {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: { ...statelessMeta(), 'io.modelcontextprotocol/clientCapabilities': capabilities },
      },
    },
  });
}

const handshake = (server: ReturnType<typeof serverWith>, method: string, params: Record<string, unknown>) =>
  send(server, { body: { jsonrpc: '2.0', id: 1, method, params } });

describe('who gets a task', () => {
  it('server/discover advertises the extension; initialize (handshake era, which cannot use it) does not', async () => {
    const server = serverWith();
    expect((await stateless(server, 'server/discover', {})).json.result.capabilities.extensions).toEqual({
      [TASKS_EXTENSION]: {},
    });
    const init = await handshake(server, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    expect(init.json.result.capabilities).toEqual({ tools: {} });
  });

  it('a server without tasks advertises no extension and runs task tools in the request', async () => {
    const server = createMcpServer({ info: { name: 'unit', version: '1.0.0' }, tools });
    expect(
      (await stateless(server, 'server/discover', {})).json.result.capabilities.extensions,
    ).toBeUndefined();
    expect((await stateless(server, 'tools/call', { name: 'only' })).json.result.content).toEqual([
      { type: 'text', text: 'done' },
    ]);
  });

  it('a required task tool answers -32021 naming the extension (HTTP 400) to a client without it', async () => {
    const res = await stateless(serverWith(), 'tools/call', { name: 'only' }, {});
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });

  it('the handshake era never gets a task: optional tools run in the request, required ones say why they cannot', async () => {
    const server = serverWith();
    expect(
      (await handshake(server, 'tools/call', { name: 'maybe', arguments: { ms: 5 } })).json.result,
    ).toEqual({
      content: [{ type: 'text', text: 'slept 5' }],
    });
    const refused = (await handshake(server, 'tools/call', { name: 'only' })).json.result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(
      /runs only as a task.*2026-07-28.*io\.modelcontextprotocol\/tasks/,
    );
    expect((await handshake(server, 'tasks/get', { taskId: 'x' })).json.error.code).toBe(-32601);
  });

  it('a task tool that finishes within afterMs answers with its result; a slower one with the task', async () => {
    const server = serverWith();
    const quick = (await stateless(server, 'tools/call', { name: 'maybe', arguments: { ms: 10 } })).json
      .result;
    expect(quick).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'slept 10' }] });
    const slow = (await stateless(server, 'tools/call', { name: 'maybe', arguments: { ms: 1_500 } })).json
      .result;
    expect(slow).toMatchObject({ resultType: 'task', status: 'working' });
    await sleep(700);
    const done = (await stateless(server, 'tasks/get', { taskId: slow.taskId })).json.result;
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'slept 1500' }] },
    });
  });

  it('arguments too large to keep in a task record answer isError instead of a task', async () => {
    const res = await stateless(serverWith(), 'tools/call', {
      name: 'maybe',
      arguments: { blob: 'x'.repeat(70_000) },
    });
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/too large to run it as a task/);
  });
});

describe('task.prepare', () => {
  it('asks for input in the request first (multi round-trip), then the task gets the answers', async () => {
    const server = serverWith();
    const ask = (await stateless(server, 'tools/call', { name: 'asks_first' })).json.result;
    expect(ask).toMatchObject({
      resultType: 'input_required',
      inputRequests: { ok: { method: 'elicitation/create' } },
    });
    expect(ask.taskId).toBeUndefined();
    const created = (
      await stateless(server, 'tools/call', {
        name: 'asks_first',
        inputResponses: { ok: { action: 'accept' } },
      })
    ).json.result;
    expect(created).toMatchObject({ resultType: 'task' });
    expect(created.requestState).toBeUndefined();
    await sleep(50);
    expect(
      (await stateless(server, 'tasks/get', { taskId: created.taskId })).json.result.result.content,
    ).toEqual([{ type: 'text', text: 'confirmed: {"action":"accept"}' }]);
  });

  it('runs for clients without the extension too, whose call then runs in the request', async () => {
    const server = serverWith();
    const res = await stateless(
      server,
      'tools/call',
      { name: 'asks_first', inputResponses: { ok: { action: 'accept' } } },
      {
        elicitation: {},
      },
    );
    expect(res.json.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'confirmed: {"action":"accept"}' }],
    });
  });
});

describe('the task methods', () => {
  it('are registered before their code loads under exactly the names the extension answers', () => {
    expect(Object.keys(taskMethods({} as TaskRuntime)).sort()).toEqual([...TASK_METHODS].sort());
  });

  it('tasks/update refuses inputResponses that are not an object of results, or too large to keep', async () => {
    const server = serverWith();
    const { taskId } = (await stateless(server, 'tools/call', { name: 'only' })).json.result;
    const res = await stateless(server, 'tasks/update', { taskId, inputResponses: { k: 'yes' } });
    expect(res.json.error.code).toBe(-32602);
    const huge = await stateless(server, 'tasks/update', {
      taskId,
      inputResponses: { k: { text: 'x'.repeat(70_000) } },
    });
    expect(huge.json.error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/at most 65536 bytes/),
    });
  });

  it('subscriptions/listen for task ids needs the extension (-32021); with it, the empty filter is acknowledged', async () => {
    const server = serverWith();
    const filter = { notifications: { taskIds: ['0'.repeat(32)] } };
    expect((await stateless(server, 'subscriptions/listen', filter, {})).json.error.code).toBe(-32021);
    const res = await stateless(server, 'subscriptions/listen', filter);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.body).toContain('"notifications":{}');
  });

  it('tasks/result and tasks/list do not exist (-32601, HTTP 404)', async () => {
    const server = serverWith();
    for (const method of ['tasks/result', 'tasks/list']) {
      const res = await stateless(server, method, { taskId: '0'.repeat(32) });
      expect([res.status, res.json.error.code]).toEqual([404, -32601]);
    }
  });

  it('a worker that cannot be started fails the call with -32603, and the task reads failed at once', async () => {
    const store = memoryTaskStore();
    const server = serverWith({
      store,
      launch: async () => {
        throw new Error('Rate exceeded');
      },
    });
    const res = await stateless(server, 'tools/call', { name: 'only' });
    expect(res.json.error.code).toBe(-32603);
    expect(JSON.stringify(res.json)).not.toContain('Rate exceeded');
    expect(store.size).toBe(1);
  });

  it('a task whose record cannot be read while afterMs waits is answered with the task: it exists and runs', async () => {
    const store = memoryTaskStore();
    // Created and started, then every read fails (the worker here is never started, so it stays working).
    const flaky = { ...store, get: () => Promise.reject(new Error('ProvisionedThroughputExceeded')) };
    const server = serverWith({ store: flaky, launch: async () => undefined });
    const res = await stateless(server, 'tools/call', { name: 'maybe', arguments: { ms: 10 } });
    expect(res.json.result).toMatchObject({ resultType: 'task', status: 'working' });
  });
});
