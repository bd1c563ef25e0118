import { deadlineSignal } from '../deadline.ts';
import { readInputResponses } from '../input/input-required.ts';
import { errorFields } from '../log.ts';
import { ownerTag } from '../outputs/object-info.ts';
import { Defaults, TaskLimits } from '../limits.ts';
import {
  InternalError,
  InvalidParamsError,
  MissingCapabilityError,
  TaskNotFoundError,
} from '../protocol/errors.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { TaskJob } from '../tasks/job.ts';
import { answer, answersTo, cancel, detailedTask, isTaskId, settle } from '../tasks/policy.ts';
import type { TaskRuntime } from '../tasks/runtime.ts';
import { TASKS_EXTENSION, type TaskKey, type TaskRecord } from '../tasks/types.ts';
import type { MethodContext, MethodTable } from './method.ts';

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (the tasks extension, SEP-2663). Every one needs the extension on
 * the request (-32021 otherwise), and finds only the caller's own tasks: an unknown id, an expired task and
 * another caller's task are answered alike, -32602. `tasks/result` and `tasks/list` no longer exist (-32601).
 * Every store call and worker start ends before the invocation's deadline: a store that does not answer in time
 * costs -32603, not a gateway timeout.
 */
export function taskMethods(tasks: TaskRuntime): MethodTable {
  return {
    'tasks/get': {
      handler: async (params, ctx) =>
        detailedTask(await find(tasks, params, ctx, deadlineSignal(ctx.deadline))) as unknown as JSONObject,
    },
    'tasks/update': {
      handler: async (params, ctx) => {
        const key = taskKey(params, ctx);
        const responses = readInputResponses(params.inputResponses ?? null);
        // Answers are kept in the task record until the next run: bounded like a task call's arguments.
        if (Buffer.byteLength(JSON.stringify(responses), 'utf8') > TaskLimits.maxArgumentsBytes)
          throw new InvalidParamsError(
            `inputResponses may hold at most ${TaskLimits.maxArgumentsBytes} bytes`,
          );
        const signal = deadlineSignal(ctx.deadline);
        const clientKey = ctx.principal?.clientKey;
        // The questions were asked of the client that started the task: another client of the same person, who
        // may read and cancel it, may not answer them (nor start the next run as itself).
        if (!answersTo(await find(tasks, params, ctx, signal), clientKey))
          throw new InvalidParamsError('the task asks the client that started it; answer from that client');
        const change = (r: TaskRecord) =>
          answersTo(r, clientKey) ? answer(r, responses, tasks.now())?.record : undefined;
        const update = await tasks.records.update(key, change, { signal });
        // The last outstanding answer makes the next run due: start it (SEP-2663: the ack may precede it).
        if (update?.status === 'working') await start(tasks, update, ctx, signal);
        return {};
      },
    },
    'tasks/cancel': {
      handler: async (params, ctx) => {
        const key = taskKey(params, ctx);
        const signal = deadlineSignal(ctx.deadline);
        await find(tasks, params, ctx, signal);
        // Cancelling a finished task changes nothing and is acknowledged alike (idempotent).
        await tasks.records.update(key, (r) => cancel(r, tasks.now()), { signal });
        return {};
      },
    },
  };
}

/** The caller's key for the task a request names; -32021 without the extension, -32602 for no task id. */
function taskKey(params: JSONObject, ctx: MethodContext): TaskKey {
  if (!ctx.codec.acceptsTasks()) throw new MissingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
  const owner = ownerTag(ctx.principal?.key);
  if (typeof params.taskId !== 'string') throw new TaskNotFoundError(params.taskId);
  return { taskId: params.taskId, ...(owner !== undefined ? { owner } : {}) };
}

/** The live task a request names, or -32602 exactly as for an unknown id. */
async function find(
  tasks: TaskRuntime,
  params: JSONObject,
  ctx: MethodContext,
  signal: AbortSignal | undefined,
): Promise<TaskRecord> {
  const key = taskKey(params, ctx);
  const read = { log: ctx.log, ...(signal ? { signal } : {}) };
  const record = isTaskId(key.taskId) ? await tasks.records.read(key, read) : undefined;
  if (!record) throw new TaskNotFoundError(key.taskId);
  return record;
}

/**
 * Starts the due run of a task in a worker, with the live caller of this request. If no worker can be started
 * before `signal` fires (the invocation's deadline), the task fails at once (never waits for a worker that will
 * not come; a start Lambda accepted anyway then finds it failed and does nothing) and the request fails with -32603.
 */
export async function start(
  tasks: TaskRuntime,
  record: TaskRecord,
  ctx: MethodContext,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { revision } = ctx.codec;
  const job: TaskJob = {
    version: 1,
    taskId: record.taskId,
    ...(record.owner !== undefined ? { owner: record.owner } : {}),
    round: record.round,
    ...(ctx.principal !== undefined ? { principal: ctx.principal } : {}),
    era: revision.era,
    protocolVersion: revision.protocolVersion,
    clientCapabilities: revision.clientCapabilities ?? {},
  };
  try {
    await tasks.launch(job, signal ? { signal } : {});
  } catch (error) {
    ctx.log.error('task worker could not be started', { taskId: record.taskId, error: errorFields(error) });
    const failure = new InternalError(ctx.requestId, 'the task');
    const stopped = { code: failure.code, message: failure.message };
    // Within half the answer margin of the deadline: the start's own signal may have fired already.
    const recording = deadlineSignal(ctx.deadline, Defaults.answerMarginMs / 2);
    const fail = (r: TaskRecord) => settle(r, record.round, { kind: 'error', error: stopped }, tasks.now());
    await tasks.records
      .update(record, fail, recording ? { signal: recording } : {})
      // Unrecorded, the task still fails: its start lease runs out (TaskLimits.startLeaseMs).
      .catch((cause) => ctx.log.error('could not record the failed start', { error: errorFields(cause) }));
    throw failure;
  }
}
