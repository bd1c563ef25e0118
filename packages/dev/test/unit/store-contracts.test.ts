import { describe, expect, it } from 'vitest';
import {
  memoryCallState,
  memoryTaskStore,
  type ApprovalLedger,
  type QuestionStore,
  type StreamLog,
  type TaskStore,
} from '@mcp-lambda/server/backend';
import {
  approvalLedgerChecks,
  cancellationStoreChecks,
  questionStoreChecks,
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

  it("catch a question store that takes another caller's answer or keeps an expired question waiting", async () => {
    const real = memoryCallState().questions;
    const callers = new Map<string, string>();
    // Answers in the name of whoever the question was asked of, whoever sends them.
    const callerBlind: QuestionStore = {
      ...real,
      open: async (question) => (callers.set(question.slot, question.caller), real.open(question)),
      answer: async (to) => real.answer({ ...to, caller: callers.get(to.slot) ?? to.caller }),
    };
    expect(await failing(questionStoreChecks(() => callerBlind))).toEqual([
      "refuses an unknown question, a guessed id, another caller's answer and a late one, and still waits",
    ]);
    const timeless: QuestionStore = { ...real, read: (question) => real.read({ ...question, now: 0 }) };
    expect(await failing(questionStoreChecks(() => timeless))).toEqual([
      'reads a question whose time has passed, or that was never asked, as gone',
    ]);
  });

  it('catch cancellations kept apart from the questions of their slots', async () => {
    const apart = () => ({
      questions: memoryCallState().questions,
      cancellations: memoryCallState().cancellations,
    });
    expect(await failing(cancellationStoreChecks(apart))).toEqual([
      'settles a waiting question as cancelled, refuses a later answer, and outlasts its close',
      'asks no question in a cancelled slot',
    ]);
  });
});
