import { describe, expect, it } from 'vitest';
import { defineTool, inputRequired, TASKS_EXTENSION } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { principalKey } from '../../src/auth/principal.ts';
import { ownerTag } from '../../src/outputs/object-info.ts';
import { memoryTaskStore } from '../../src/faces/backend.ts';
import { callersByName, send, statelessHeaders, statelessMeta } from '@mcp-lambda/dev/testing';

// A task that asks a question mid-run (status input_required) was started by one OAuth client of a person. Another
// client of the same person (`alice@app-2`) holding the task id may read it and cancel it, as the person's; it may
// not answer the question, which was asked of the first client, nor start the next run as itself. A record written
// before tasks kept a client tag is answered by its owner from any client, as it was then.

const FIRST = 'alice@app-1';
const SECOND = 'alice@app-2';
const FORM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
const ACK = { resultType: 'complete' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  defineTool({
    name: 'ask_in_task',
    description: 'Runs as a task and asks for a confirmation in its run',
    task: { mode: 'required' },
    handler: (_args, ctx) =>
      ctx.inputResponses?.ok
        ? `answered by ${ctx.principal?.clientId}: ${JSON.stringify(ctx.inputResponses.ok)}`
        : inputRequired({
            ok: { method: 'elicitation/create', params: { message: 'Go ahead?', requestedSchema: FORM } },
          }),
  }),
];

function setup() {
  const store = memoryTaskStore();
  const server = createMcpServer({
    info: { name: 'task-client-binding', version: '1.0.0' },
    tools,
    tasks: { store },
    auth: callersByName,
  });
  /** One 2026-07-28 request as `who`, declaring the tasks extension and elicitation. */
  const call = async (who: string, method: string, params: Record<string, unknown>) => {
    const name = (params.name ?? params.taskId) as string | undefined;
    const capabilities = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: { form: {} } };
    const meta = { ...statelessMeta(), 'io.modelcontextprotocol/clientCapabilities': capabilities };
    const res = await send(server, {
      headers: { ...statelessHeaders(method, name), authorization: `Bearer ${who}` },
      body: { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } },
    });
    return res.json;
  };
  /** The task's state once its run settled. */
  const settled = async (who: string, taskId: string) => {
    for (let i = 0; i < 100; i++) {
      const task = (await call(who, 'tasks/get', { taskId })).result;
      if (task.status !== 'working') return task;
      await sleep(10);
    }
    throw new Error('the task kept working');
  };
  /** A task of FIRST's waiting for its answer, under the key `1.ok`. */
  const asking = async () => {
    const created = (await call(FIRST, 'tools/call', { name: 'ask_in_task', arguments: {} })).result;
    expect(created.resultType).toBe('task');
    const task = await settled(FIRST, created.taskId);
    expect(task).toMatchObject({ status: 'input_required', inputRequests: { '1.ok': {} } });
    return created.taskId as string;
  };
  return { store, call, settled, asking };
}

const accept = (value: boolean) => ({ '1.ok': { action: 'accept', content: { ok: value } } });

describe("a task's question is answered by the client that started it only", () => {
  it("the other client's tasks/update is -32602 and changes nothing; the first client's answer runs on", async () => {
    const { call, settled, asking } = setup();
    const taskId = await asking();
    const refused = await call(SECOND, 'tasks/update', { taskId, inputResponses: accept(false) });
    expect(refused.error).toMatchObject({ code: -32602 });
    // Still waiting for the first client's answer, the question still outstanding: the second did nothing.
    expect(await settled(SECOND, taskId)).toMatchObject({
      status: 'input_required',
      inputRequests: { '1.ok': {} },
    });
    expect(
      (await call(FIRST, 'tasks/update', { taskId, inputResponses: accept(true) })).result,
    ).toMatchObject(ACK);
    const done = await settled(FIRST, taskId);
    expect(done.status).toBe('completed');
    expect(done.result.content).toEqual([
      { type: 'text', text: 'answered by app-1: {"action":"accept","content":{"ok":true}}' },
    ]);
  });

  it('a token naming no client is another client too; another person does not find the task at all', async () => {
    const { call, asking } = setup();
    const taskId = await asking();
    const bare = await call('alice', 'tasks/update', { taskId, inputResponses: accept(false) });
    expect(bare.error).toMatchObject({ code: -32602 });
    const stranger = await call('mallory@app-1', 'tasks/update', { taskId, inputResponses: accept(false) });
    expect(stranger.error).toMatchObject({ code: -32602, message: expect.stringMatching(/not found/) });
  });

  it('reading and cancelling stay the person’s: the other client reads the task and cancels it', async () => {
    const { call, settled, asking } = setup();
    const taskId = await asking();
    expect((await call(SECOND, 'tasks/cancel', { taskId })).result).toMatchObject(ACK);
    expect((await settled(FIRST, taskId)).status).toBe('cancelled');
  });

  it('a record written before tasks kept a client tag is answered by its owner from any client', async () => {
    const { store, call, settled, asking } = setup();
    const taskId = await asking();
    const key = { taskId, owner: ownerTag(principalKey('test', 'alice')) };
    const { client, ...older } = (await store.get(key))!;
    expect(client).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.replace({ ...older, revision: older.revision + 1 })).toBe(true);
    expect(
      (await call(SECOND, 'tasks/update', { taskId, inputResponses: accept(true) })).result,
    ).toMatchObject(ACK);
    expect((await settled(FIRST, taskId)).status).toBe('completed');
  });
});
