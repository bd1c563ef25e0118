import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoTaskStore } from '../../src/faces/aws.ts';
import { memoryTaskStore, type TaskRecord, type TaskStore } from '../../src/faces/backend.ts';
import { newRecord, newTaskId } from '../../src/tasks/policy.ts';
import { taskRecords } from '../../src/tasks/records.ts';
import {
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  taskStoreChecks,
  type LocalDynamo,
} from '@mcp-lambda/dev/testing';

// The TaskStore contract (the checks `@mcp-lambda/dev/testing` gives any store), held against both implementations:
// the in-memory store and the DynamoDB store on a local DynamoDB (dynalite, which checks conditional writes and
// consistent reads as DynamoDB does).

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
  for (const check of taskStoreChecks(make)) it(check.name, check.run);

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
