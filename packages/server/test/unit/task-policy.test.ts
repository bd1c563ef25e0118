import { describe, expect, it } from 'vitest';
import { TaskLimits } from '../../src/limits.ts';
import {
  answer,
  cancel,
  claim,
  detailedTask,
  isTaskId,
  lapse,
  newRecord,
  newTaskId,
  recordBytes,
  renew,
  settle,
  wireTask,
  type RunOutcome,
} from '../../src/tasks/policy.ts';
import type { TaskRecord } from '../../src/tasks/types.ts';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const fresh = (): TaskRecord =>
  newRecord({
    taskId: newTaskId(),
    tool: 'confirm_delete',
    arguments: { filename: 'a.txt' },
    now: T0,
    ttlMs: 3_600_000,
    pollIntervalMs: 1_000,
  });
const claimed = () => claim(fresh(), 1, T0 + 10, T0 + 30_010)!;
const elicit = { method: 'elicitation/create' as const, params: { message: 'Sure?' } };
const asking = () =>
  settle(
    claimed(),
    1,
    { kind: 'input', inputRequests: { confirm: elicit, name: elicit }, state: { n: 1 } },
    T0 + 20,
  )!;

describe('task ids', () => {
  it('are 128 random bits as 32 lower-case hex digits, and nothing else is one', () => {
    const ids = new Set(Array.from({ length: 1000 }, newTaskId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isTaskId(id)).toBe(true);
    for (const bad of ['', 'A'.repeat(32), 'a'.repeat(31), `${'a'.repeat(32)}/x`, 42, null])
      expect(isTaskId(bad)).toBe(false);
  });
});

describe('the task lifecycle', () => {
  it('a new task is working, expires ttlMs after creation and gives its worker a start lease', () => {
    const record = fresh();
    expect(record).toMatchObject({ status: 'working', revision: 1, round: 1, expiresAt: T0 + 3_600_000 });
    expect(record.leaseUntil).toBe(T0 + TaskLimits.startLeaseMs);
  });

  it('a run is claimed once: a second delivery of the same start finds it taken', () => {
    const once = claimed();
    expect(once).toMatchObject({ claimedRound: 1, revision: 2, leaseUntil: T0 + 30_010 });
    expect(claim(once, 1, T0 + 20, T0 + 30_020)).toBeUndefined();
    expect(claim(fresh(), 2, T0, T0 + 1)).toBeUndefined();
  });

  it('a start that comes after its lease lapsed is not run', () => {
    expect(claim(fresh(), 1, T0 + TaskLimits.startLeaseMs + 1, T0 + 999_999)).toBeUndefined();
  });

  it('a heartbeat moves the lease and carries the latest progress message; a cancelled task refuses it', () => {
    const renewed = renew(claimed(), 1, T0 + 5_000, T0 + 35_000, 'half way (5 of 10)')!;
    expect(renewed).toMatchObject({ leaseUntil: T0 + 35_000, statusMessage: 'half way (5 of 10)' });
    expect(renew(cancel(claimed(), T0)!, 1, T0 + 5_000, T0 + 35_000)).toBeUndefined();
  });

  it('a working task whose lease lapsed becomes failed with a safe JSON-RPC error, and only then', () => {
    const running = claimed();
    expect(lapse(running, T0 + 30_010)).toBeUndefined();
    const failed = lapse(running, T0 + 30_011)!;
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failed.leaseUntil).toBeUndefined();
    expect(lapse(failed, T0 + 99_999)).toBeUndefined();
  });

  it.each<[string, RunOutcome, string]>([
    ['a result', { kind: 'result', result: { content: [{ type: 'text', text: 'ok' }] } }, 'completed'],
    ['a protocol error', { kind: 'error', error: { code: -32021, message: 'no elicitation' } }, 'failed'],
  ])('%s settles the claimed run as %s; a cancelled task keeps its status', (_, outcome, status) => {
    const settled = settle(claimed(), 1, outcome, T0 + 50)!;
    expect(settled.status).toBe(status);
    expect(settled.leaseUntil).toBeUndefined();
    expect(settle(cancel(claimed(), T0)!, 1, outcome, T0 + 50)).toBeUndefined();
  });

  it('a request for input parks the task with keys unique to the round, and keeps the tool state', () => {
    const parked = asking();
    expect(parked.status).toBe('input_required');
    expect(Object.keys(parked.inputRequests!)).toEqual(['1.confirm', '1.name']);
    expect(parked.input).toEqual({ responses: {}, state: { n: 1 } });
  });

  it('answers are kept one at a time; answered keys leave tasks/get; the last answer makes the next run due', () => {
    const partly = answer(asking(), { '1.confirm': { action: 'accept' }, stranger: { x: 1 } }, T0 + 30)!;
    expect(partly.start).toBe(false);
    expect(Object.keys(detailedTask(partly.record).inputRequests!)).toEqual(['1.name']);
    expect(answer(partly.record, { '1.confirm': { action: 'decline' } }, T0 + 31)).toBeUndefined();
    const done = answer(
      partly.record,
      { '1.name': { action: 'accept', content: { name: 'Ada' } } },
      T0 + 40,
    )!;
    expect(done.start).toBe(true);
    expect(done.record).toMatchObject({
      status: 'working',
      round: 2,
      leaseUntil: T0 + 40 + TaskLimits.startLeaseMs,
    });
    expect(done.record.input).toEqual({
      responses: { confirm: { action: 'accept' }, name: { action: 'accept', content: { name: 'Ada' } } },
      state: { n: 1 },
    });
    expect(done.record.inputRequests).toBeUndefined();
  });

  it('cancel ends any unfinished task and leaves a finished one as it is', () => {
    expect(cancel(asking(), T0 + 60)).toMatchObject({ status: 'cancelled' });
    const completed = settle(claimed(), 1, { kind: 'result', result: { content: [] } }, T0 + 50)!;
    expect(cancel(completed, T0 + 60)).toBeUndefined();
  });

  it('an outcome too large for one store item completes with an isError result saying so', () => {
    const huge = { content: [{ type: 'text' as const, text: 'x'.repeat(TaskLimits.maxRecordBytes) }] };
    const settled = settle(claimed(), 1, { kind: 'result', result: huge }, T0 + 50)!;
    expect(settled.status).toBe('completed');
    expect(settled.result).toMatchObject({ isError: true });
    expect(recordBytes(settled)).toBeLessThan(TaskLimits.maxRecordBytes);
  });
});

describe('the wire form', () => {
  it('is flat, with ISO times, integer ttlMs and pollIntervalMs, and no v1 names', () => {
    const task = wireTask(fresh());
    expect(task).toEqual({
      taskId: expect.stringMatching(/^[0-9a-f]{32}$/),
      status: 'working',
      createdAt: '2026-11-23T10:00:00.000Z',
      lastUpdatedAt: '2026-11-23T10:00:00.000Z',
      ttlMs: 3_600_000,
      pollIntervalMs: 1_000,
    });
  });

  it('tasks/get inlines the result once completed and the error once failed, never both', () => {
    const completed = settle(claimed(), 1, { kind: 'result', result: { content: [] } }, T0 + 50)!;
    expect(detailedTask(completed)).toMatchObject({ status: 'completed', result: { content: [] } });
    expect(detailedTask(completed).error).toBeUndefined();
    const failed = lapse(claimed(), T0 + 99_999)!;
    expect(detailedTask(failed).result).toBeUndefined();
    expect(detailedTask(failed).error).toMatchObject({ code: -32603 });
    expect(Object.keys(detailedTask(failed))).not.toContain('requestState');
  });
});
