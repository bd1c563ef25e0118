import { describe, expect, it } from 'vitest';
import {
  memoryCallState,
  memoryTaskStore,
  type ApprovalLedger,
  type StreamLog,
  type TaskStore,
} from '@mcp-lambda/server/backend';
import {
  approvalLedgerChecks,
  streamLogChecks,
  taskStoreChecks,
  type ContractCheck,
} from '../../src/testing/index.ts';

/** The names of the checks that fail. */
async function failing(checks: ContractCheck[]): Promise<string[]> {
  const failed: string[] = [];
  for (const check of checks) await check.run().catch(() => failed.push(check.name));
  return failed;
}

/**
 * The contract checks catch what they promise to: each runs against a store broken in one way and names the rule
 * it breaks (the reference implementations, in the packages' own tests, pass them all; the bridge store's checks
 * are tried the same way in the bridge's tests).
 */
describe('the store contract checks', () => {
  it('catch a task store that ignores the owner or the revision', async () => {
    const real = memoryTaskStore();
    const ownerless: TaskStore = {
      ...real,
      get: (key, options) => real.get({ taskId: key.taskId, owner: 'a'.repeat(64) }, options),
    };
    expect(await failing(taskStoreChecks(() => ownerless))).toContain(
      'binds a record to its owner: the same id under another owner, or none, is not found',
    );
    const store = memoryTaskStore();
    const lastWriterWins: TaskStore = {
      ...store,
      replace: async (record) => (await store.get(record)) !== undefined,
    };
    expect(await failing(taskStoreChecks(() => lastWriterWins))).toContain(
      'replaces a record only over the revision it read: of two writers, exactly one wins',
    );
  });

  it('catch an approval ledger that lets an approval through twice', async () => {
    const forgetful: ApprovalLedger = { shared: true, consume: async () => true };
    expect(await failing(approvalLedgerChecks(() => forgetful))).toEqual([
      'consumes an approval once: fresh the first time, used every time after',
      'lets exactly one of many concurrent uses of one approval through',
      'still knows an approval used in its last moment, just after it expired',
    ]);
  });

  it('catch a stream log that loses the end of a stream or serves an expired one', async () => {
    const real = memoryCallState().streamLog;
    const lossy: StreamLog = {
      ...real,
      readEvent: async (at) => {
        const event = await real.readEvent(at);
        return event && { position: event.position, data: event.data };
      },
    };
    expect(await failing(streamLogChecks(() => lossy))).toEqual([
      'reads back the head and each event appended after it; nothing else',
    ]);
    const stale: StreamLog = { ...real, readHead: ({ streamId }) => real.readHead({ streamId, now: 0 }) };
    expect(await failing(streamLogChecks(() => stale))).toEqual(['serves no head once the log expired']);
  });
});
