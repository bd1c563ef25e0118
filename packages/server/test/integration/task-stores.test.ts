import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoTaskStore } from '../../src/faces/aws.ts';
import { memoryTaskStore, type TaskRecord, type TaskStore } from '../../src/faces/backend.ts';
import { newRecord, newTaskId } from '../../src/tasks/policy.ts';
import { taskRecords } from '../../src/tasks/records.ts';
import { LOCAL_DYNAMO_CREDENTIALS, startLocalDynamo, type LocalDynamo } from '@mcp-lambda/dev/testing';

// The TaskStore contract, held against both implementations: the in-memory store and the DynamoDB store on a
// local DynamoDB (dynalite, which checks conditional writes and consistent reads as DynamoDB does).

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo();
});
afterAll(() => dynamo?.close());

const OWNER = 'a'.repeat(64);
const record = (overrides: Partial<TaskRecord> = {}): TaskRecord => ({
  ...newRecord({
    taskId: newTaskId(),
    owner: OWNER,
    tool: 'slow_compute',
    arguments: { seconds: 1 },
    now: Date.now(),
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
  }),
  ...overrides,
});

const stores: [string, () => TaskStore][] = [
  ['the in-memory store', () => memoryTaskStore()],
  [
    'the DynamoDB store',
    () =>
      dynamoTaskStore({
        table: dynamo.tableName,
        endpoint: dynamo.endpoint,
        credentials: LOCAL_DYNAMO_CREDENTIALS,
      }),
  ],
];

describe.each(stores)('%s', (_name, make) => {
  it('reads a created record back, equal to what was written', async () => {
    const store = make();
    const written = record({ input: { responses: { name: { action: 'accept' } }, state: { step: 2 } } });
    await store.create(written);
    expect(await store.get(written)).toEqual(written);
  });

  it('refuses to create a record over an existing one', async () => {
    const store = make();
    const written = record();
    await store.create(written);
    await expect(store.create({ ...written, tool: 'other' })).rejects.toThrow();
    expect((await store.get(written))!.tool).toBe('slow_compute');
  });

  it('binds a record to its owner: the same id under another owner, or none, is not found', async () => {
    const store = make();
    const written = record();
    await store.create(written);
    expect(await store.get({ taskId: written.taskId, owner: 'b'.repeat(64) })).toBeUndefined();
    expect(await store.get({ taskId: written.taskId })).toBeUndefined();
  });

  it('replaces a record only over the revision it read: of two writers, exactly one wins', async () => {
    const store = make();
    const written = record();
    await store.create(written);
    const [a, b] = await Promise.all([
      store.replace({ ...written, revision: 2, status: 'cancelled' }),
      store.replace({ ...written, revision: 2, status: 'completed' }),
    ]);
    expect([a, b].sort()).toEqual([false, true]);
    const stored = (await store.get(written))!;
    expect(stored.revision).toBe(2);
    expect(await store.replace({ ...stored, revision: 2 })).toBe(false);
    expect(await store.replace({ ...stored, revision: 3, statusMessage: 'next' })).toBe(true);
  });

  it('does not replace a record that does not exist', async () => {
    expect(await make().replace(record({ revision: 2 }))).toBe(false);
  });

  it('keeps a record close to the 400 KB item limit whole', async () => {
    const store = make();
    const written = record({ arguments: { blob: 'x'.repeat(340_000) } });
    await store.create(written);
    expect((await store.get(written))!.arguments).toEqual(written.arguments);
  });

  it('with the records layer, an expired record reads as gone at its expiry and never before', async () => {
    const store = make();
    let now = Date.now();
    const written = record({ createdAt: now, expiresAt: now + 1_000 });
    await store.create(written);
    const records = taskRecords(store, () => now);
    now = written.expiresAt - 1;
    expect(await records.read(written)).toBeDefined();
    now = written.expiresAt;
    expect(await records.read(written)).toBeUndefined();
  });
});

describe('the DynamoDB store', () => {
  it('fails with a TaskStoreError, never a false "not found", when the table cannot be reached', async () => {
    const store = dynamoTaskStore({
      table: 'no-such-table',
      endpoint: dynamo.endpoint,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
    });
    await expect(store.get({ taskId: newTaskId() })).rejects.toThrow(/task store get failed/);
  });
});
