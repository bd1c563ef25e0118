import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TaskRecord, TaskStore } from '@mcp-lambda/server/backend';
import { assertRejects, checks, type ContractCheck, type MakeStore } from './check.ts';

const OWNER = 'a'.repeat(64);

/** A new working task, as the server writes one when a call becomes a task. */
function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: randomBytes(16).toString('hex'),
    owner: OWNER,
    revision: 1,
    status: 'working',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 60_000,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    leaseUntil: now + 30_000,
    round: 1,
    tool: 'slow_compute',
    arguments: { seconds: 1 },
    ...overrides,
  };
}

/**
 * The `TaskStore` contract (`@mcp-lambda/server/backend`): records read back whole, bound to their owner, replaced
 * only over the revision read (of two concurrent writers exactly one wins), up to DynamoDB's item size.
 */
export function taskStoreChecks(make: MakeStore<TaskStore>): ContractCheck[] {
  return checks(make, {
    'reads a created record back, equal to what was written': async (store) => {
      const written = record({ input: { responses: { name: { action: 'accept' } }, state: { step: 2 } } });
      await store.create(written);
      assert.deepStrictEqual(await store.get(written), written);
    },
    'refuses to create a record over an existing one': async (store) => {
      const written = record();
      await store.create(written);
      await assertRejects(() => store.create({ ...written, tool: 'other' }), 'the second create');
      assert.equal((await store.get(written))?.tool, 'slow_compute');
    },
    'binds a record to its owner: the same id under another owner, or none, is not found': async (store) => {
      const written = record();
      await store.create(written);
      assert.equal(await store.get({ taskId: written.taskId, owner: 'b'.repeat(64) }), undefined);
      assert.equal(await store.get({ taskId: written.taskId }), undefined);
    },
    'keeps records without an owner apart from those with one': async (store) => {
      const { owner: _owner, ...anonymous } = record();
      await store.create(anonymous);
      assert.deepStrictEqual(await store.get({ taskId: anonymous.taskId }), anonymous);
      assert.equal(await store.get({ taskId: anonymous.taskId, owner: OWNER }), undefined);
    },
    'replaces a record only over the revision it read: of two writers, exactly one wins': async (store) => {
      const written = record();
      await store.create(written);
      const outcomes = await Promise.all([
        store.replace({ ...written, revision: 2, status: 'cancelled' }),
        store.replace({ ...written, revision: 2, status: 'completed' }),
      ]);
      assert.deepStrictEqual(outcomes.sort(), [false, true]);
      const stored = await store.get(written);
      assert.ok(stored, 'the record after the race');
      assert.equal(stored.revision, 2);
      assert.equal(await store.replace({ ...stored, revision: 2 }), false);
      assert.equal(await store.replace({ ...stored, revision: 3, statusMessage: 'next' }), true);
      assert.equal((await store.get(written))?.statusMessage, 'next');
    },
    'does not replace a record that does not exist': async (store) => {
      assert.equal(await store.replace(record({ revision: 2 })), false);
    },
    'drops a field a replacement leaves out': async (store) => {
      const written = record();
      await store.create(written);
      const { leaseUntil: _lease, ...rest } = written;
      assert.equal(
        await store.replace({ ...rest, revision: 2, status: 'completed', result: { content: [] } }),
        true,
      );
      assert.equal((await store.get(written))?.leaseUntil, undefined);
    },
    'keeps a record close to the 400 KB item limit whole': async (store) => {
      const written = record({ arguments: { blob: 'x'.repeat(340_000) } });
      await store.create(written);
      assert.deepStrictEqual((await store.get(written))?.arguments, written.arguments);
    },
  });
}
