import { nodeCrypto } from '../crypto.ts';
import type { InputRequest } from '../input/input-required.ts';
import { TaskLimits } from '../limits.ts';
import { ErrorCode } from '../protocol/errors.ts';
import type { CallToolResult, JSONObject, JSONValue } from '../protocol/types.ts';
import { toolErrorResult } from '../tools/result.ts';
import {
  TERMINAL_STATUSES,
  type DetailedTask,
  type Task,
  type TaskError,
  type TaskInput,
  type TaskRecord,
} from './types.ts';

/**
 * The task lifecycle as pure functions over records (SEP-2663 "Task Status"): which transitions exist, when a task
 * has expired or its worker has stopped, and what a task looks like on the wire. Every transition returns the next
 * record (revision + 1) or `undefined` when it does not apply; `records.ts` writes them conditionally.
 */

const ID = /^[0-9a-f]{32}$/;

/** A new unguessable task id: 128 bits from the system CSPRNG, as 32 lower-case hex digits. */
export const newTaskId = (): string => nodeCrypto().randomBytes(16).toString('hex');

/** Whether a client-supplied value can be a task id at all (anything else is "not found" without a lookup). */
export const isTaskId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);

/**
 * The client tag a task keeps of the caller that started it: a digest of its client key (`Principal.clientKey`),
 * prefixed apart from owner tags. Undefined without a caller (requests are not authenticated).
 */
export const clientTag = (clientKey: string | undefined): string | undefined =>
  clientKey === undefined
    ? undefined
    : nodeCrypto().createHash('sha256').update(`client:${clientKey}`, 'utf8').digest('hex');

/**
 * Whether a caller may answer the task's questions: they were asked of the client that started it, so another
 * client of the same person holding the id may not. A record without a tag (written before tasks kept one) is
 * answered by its owner, as it was then.
 */
export const answersTo = (record: TaskRecord, clientKey: string | undefined): boolean =>
  record.client === undefined || record.client === clientTag(clientKey);

/** The wire key of a tool's input request in a round: unique over the task's life, as SEP-2663 requires. */
const wireKey = (round: number, key: string): string => `${round}.${key}`;

/** What a new task's record needs. */
export interface NewTask {
  taskId: string;
  owner?: string;
  client?: string;
  tool: string;
  arguments: JSONObject;
  input?: TaskInput;
  now: number;
  ttlMs: number;
  pollIntervalMs: number;
}

/** A new task: working, its first run due, and a lease long enough for the worker to start. */
export function newRecord(task: NewTask): TaskRecord {
  const { now, input, owner, client, ...rest } = task;
  return {
    ...rest,
    ...(owner !== undefined ? { owner } : {}),
    ...(client !== undefined ? { client } : {}),
    revision: 1,
    status: 'working',
    createdAt: now,
    updatedAt: now,
    expiresAt: now + task.ttlMs,
    leaseUntil: now + TaskLimits.startLeaseMs,
    round: 1,
    ...(input ? { input } : {}),
  };
}

/** Whether the task is past its `ttlMs`: from then on it is treated as gone (never earlier). */
export const isExpired = (record: TaskRecord, now: number): boolean => now >= record.expiresAt;

/** Whether the task is working but no worker has renewed its lease in time: the worker crashed or was stopped. */
const leaseLapsed = (record: TaskRecord, now: number): boolean =>
  record.status === 'working' && record.leaseUntil !== undefined && record.leaseUntil < now;

const next = (record: TaskRecord, now: number, changes: Partial<TaskRecord>): TaskRecord => {
  const { leaseUntil: _lease, claimedRound: _claim, ...rest } = record;
  const keepsWorking = (changes.status ?? record.status) === 'working';
  return {
    ...(keepsWorking ? record : rest),
    ...changes,
    revision: record.revision + 1,
    updatedAt: now,
  };
};

/** The safe error of a task whose worker stopped without recording an outcome. */
const WORKER_STOPPED: TaskError = {
  code: ErrorCode.InternalError,
  message:
    'The task stopped before it finished: its worker crashed or ran out of time. Start the tool call again; ' +
    'if it keeps failing, ask for less work per call.',
};

/** A working task whose lease lapsed becomes failed, with a safe message. */
export function lapse(record: TaskRecord, now: number): TaskRecord | undefined {
  if (!leaseLapsed(record, now)) return undefined;
  const { input: _input, ...rest } = record;
  return next(rest, now, { status: 'failed', statusMessage: WORKER_STOPPED.message, error: WORKER_STOPPED });
}

/** `tasks/cancel`: a task that has not ended is cancelled (the worker notices at its next heartbeat). */
export function cancel(record: TaskRecord, now: number): TaskRecord | undefined {
  if (TERMINAL_STATUSES.has(record.status)) return undefined;
  const { input: _i, inputRequests: _r, inputResponses: _a, ...rest } = record;
  return next(rest, now, { status: 'cancelled', statusMessage: 'The task was cancelled by the client.' });
}

/** A worker takes the due run of a working task, once; a second delivery of the same start finds it taken. */
export function claim(record: TaskRecord, round: number, now: number, leaseUntil: number) {
  if (record.status !== 'working' || record.round !== round || record.claimedRound === round)
    return undefined;
  if (leaseLapsed(record, now)) return undefined;
  return next(record, now, { claimedRound: round, leaseUntil });
}

/** The running worker's heartbeat: a later lease and its latest progress message. */
export function renew(record: TaskRecord, round: number, now: number, leaseUntil: number, message?: string) {
  if (record.status !== 'working' || record.round !== round || record.claimedRound !== round)
    return undefined;
  return next(record, now, { leaseUntil, ...(message !== undefined ? { statusMessage: message } : {}) });
}

/**
 * `tasks/update`: keeps the answers to outstanding requests (others are ignored, SEP-2663), and once every
 * outstanding request is answered, makes the next run due with the answers under the tool's own keys.
 */
export function answer(
  record: TaskRecord,
  responses: Readonly<Record<string, JSONObject>>,
  now: number,
): { record: TaskRecord; start: boolean } | undefined {
  if (record.status !== 'input_required' || !record.inputRequests) return undefined;
  const pending = record.inputRequests;
  const answered = { ...record.inputResponses };
  let changed = false;
  for (const [key, response] of Object.entries(responses)) {
    if (Object.hasOwn(pending, key) && !Object.hasOwn(answered, key)) {
      answered[key] = response;
      changed = true;
    }
  }
  if (!changed) return undefined;
  if (Object.keys(pending).some((key) => !Object.hasOwn(answered, key)))
    return { record: next(record, now, { inputResponses: answered }), start: false };
  const prefix = `${record.round}.`;
  const byToolKey = Object.fromEntries(
    Object.entries(answered).map(([key, value]) => [key.slice(prefix.length), value]),
  );
  const { inputRequests: _r, inputResponses: _a, statusMessage: _m, ...rest } = record;
  const state = record.input?.state;
  return {
    record: next(rest, now, {
      status: 'working',
      round: record.round + 1,
      leaseUntil: now + TaskLimits.startLeaseMs,
      input: { responses: byToolKey, ...(state !== undefined ? { state } : {}) },
    }),
    start: true,
  };
}

/** What one run of the tool ended with. */
export type RunOutcome =
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'input'; inputRequests: Readonly<Record<string, InputRequest>>; state?: JSONValue }
  | { kind: 'error'; error: TaskError };

/** Records the outcome of the claimed run; undefined when the task moved on (cancelled, lapsed) meanwhile. */
export function settle(record: TaskRecord, round: number, outcome: RunOutcome, now: number) {
  if (record.status !== 'working' || record.round !== round) return undefined;
  const { input: _input, statusMessage: _message, ...rest } = record;
  const settled =
    outcome.kind === 'result'
      ? next(rest, now, { status: 'completed', result: outcome.result as unknown as JSONObject })
      : outcome.kind === 'error'
        ? next(rest, now, { status: 'failed', statusMessage: outcome.error.message, error: outcome.error })
        : next(rest, now, {
            status: 'input_required',
            inputRequests: Object.fromEntries(
              Object.entries(outcome.inputRequests).map(([key, r]) => [wireKey(round, key), r]),
            ),
            ...(outcome.state !== undefined ? { input: { responses: {}, state: outcome.state } } : {}),
          });
  return fitRecord(settled, record.tool);
}

/** Serialized size of a record, as the store keeps it. */
export const recordBytes = (record: TaskRecord): number => Buffer.byteLength(JSON.stringify(record), 'utf8');

/**
 * A record too large for one store item (results were already offloaded down to the task's inline budget, so this
 * is rare: many small blocks, or a huge input request) completes with an `isError` result saying so instead.
 */
function fitRecord(record: TaskRecord, tool: string): TaskRecord {
  const bytes = recordBytes(record);
  if (bytes <= TaskLimits.maxRecordBytes) return record;
  const { inputRequests: _r, input: _i, error: _e, ...rest } = record;
  const result = toolErrorResult(
    `The outcome of tool "${tool}" (${bytes} bytes) is larger than a task can keep ` +
      `(${TaskLimits.maxRecordBytes} bytes), so it was dropped. Ask for less data per call.`,
  );
  return {
    ...rest,
    status: 'completed',
    statusMessage: 'The outcome was too large to keep.',
    result: result as unknown as JSONObject,
  };
}

/** The task's metadata on the wire (schema: `Task`). */
export function wireTask(record: TaskRecord): Task {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined ? { statusMessage: record.statusMessage } : {}),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.updatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** `tasks/get`: the task with the payload of its status; answered input requests are no longer outstanding. */
export function detailedTask(record: TaskRecord): DetailedTask {
  const task: DetailedTask = wireTask(record);
  if (record.status === 'input_required' && record.inputRequests) {
    const answered = record.inputResponses ?? {};
    task.inputRequests = Object.fromEntries(
      Object.entries(record.inputRequests).filter(([key]) => !Object.hasOwn(answered, key)),
    );
  }
  if (record.status === 'completed' && record.result) task.result = record.result;
  if (record.status === 'failed' && record.error) task.error = record.error;
  return task;
}
