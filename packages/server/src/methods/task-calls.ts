import type { InputTarget } from '../codec/codec.ts';
import { deadlineSignal } from '../deadline.ts';
import { InputRequired } from '../input/input-required.ts';
import { TaskLimits } from '../limits.ts';
import { errorFields } from '../log.ts';
import { ownerTag } from '../outputs/object-info.ts';
import type { CallToolResult, JSONObject } from '../protocol/types.ts';
import { clientTag, newRecord, newTaskId, wireTask } from '../tasks/policy.ts';
import type { TaskRuntime } from '../tasks/runtime.ts';
import type { TaskKey, TaskRecord } from '../tasks/types.ts';
import type { CallOptions } from '../tools/budget.ts';
import type { TaskSupport } from '../tools/define.ts';
import { refusesArguments, type CallContext, type ToolRegistry } from '../tools/registry.ts';
import { toolErrorResult } from '../tools/result.ts';
import type { MethodContext } from './method.ts';
import { start } from './tasks.ts';

/** A `tools/call` of a tool that may run as a task: what it needs besides the runtime. */
export interface TaskCall {
  tools: ToolRegistry;
  name: string;
  args: JSONObject;
  support: TaskSupport;
  /** The tool context of the request (for `task.prepare`, and the run's first input). */
  callCtx: CallContext;
  target: InputTarget;
  /** Time left in the request for `task.prepare` and `task.afterMs`. */
  remainingMs: number;
  /** Cancels `task.prepare` with the request (a client that went away). */
  cancel: CallOptions;
  /** Told when the call's arguments are refused (they do not fit the tool, or are too large for a task). */
  onRefusedArguments?: () => void;
}

/**
 * Server-directed task creation (SEP-2663): a call of a task tool from a client that declared the extension is
 * answered with a task (a flat CreateTaskResult, `resultType: "task"`) once the task is durably stored and its
 * worker started; `task.prepare` may first gather input synchronously. A `required` tool refuses other clients;
 * an `optional` one returns undefined to them, and the call runs as any other. Storing and starting end before
 * the invocation's deadline: if they cannot, the call fails with -32603 (as for a store or start that fails).
 */
export async function callThroughTask(
  tasks: TaskRuntime,
  call: TaskCall,
  ctx: MethodContext,
): Promise<JSONObject | undefined> {
  const { tools, name, args, support, callCtx } = call;
  const budgetEnds = Date.now() + call.remainingMs;
  const accepts = ctx.codec.acceptsTasks();
  if (!accepts && support.mode === 'required') return ctx.codec.taskRequired(name);
  const prepared = await tools.prepare(name, args, callCtx, call.remainingMs, call.cancel);
  if (prepared instanceof InputRequired) return ctx.codec.askForInput(prepared, call.target, ctx);
  if (prepared) {
    if (refusesArguments(prepared)) call.onRefusedArguments?.();
    return ctx.codec.toolResult(prepared) as unknown as JSONObject;
  }
  if (!accepts) return undefined;

  const argumentBytes = Buffer.byteLength(JSON.stringify(args), 'utf8');
  if (argumentBytes > TaskLimits.maxArgumentsBytes) {
    call.onRefusedArguments?.();
    return ctx.codec.toolResult(
      toolErrorResult(
        `The arguments of tool "${name}" (${argumentBytes} bytes) are too large to run it as a task (at most ` +
          `${TaskLimits.maxArgumentsBytes} bytes). Pass less data, or a reference to it.`,
      ),
    ) as unknown as JSONObject;
  }
  const owner = ownerTag(ctx.principal?.key);
  const client = clientTag(ctx.principal?.clientKey);
  const { inputResponses = {}, requestState } = callCtx;
  const record = newRecord({
    taskId: newTaskId(),
    ...(owner !== undefined ? { owner } : {}),
    ...(client !== undefined ? { client } : {}),
    tool: name,
    arguments: args,
    ...(Object.keys(inputResponses).length || requestState !== undefined
      ? {
          input: {
            responses: { ...inputResponses },
            ...(requestState !== undefined ? { state: requestState } : {}),
          },
        }
      : {}),
    now: tasks.now(),
    ttlMs: tasks.ttlMs,
    pollIntervalMs: tasks.pollIntervalMs,
  });
  const signal = deadlineSignal(ctx.deadline);
  // SEP-2663: never answer with a task before a tasks/get for it would resolve.
  await tasks.store.create(record, signal ? { signal } : {});
  await start(tasks, record, ctx, signal);
  ctx.log.info('task created', { taskId: record.taskId, tool: name });
  // `task.prepare`, storing and starting took part of the request's time: wait only for what is left.
  const waitMs = Math.min(support.afterMs ?? 0, budgetEnds - Date.now());
  const finished = waitMs > 0 ? await completion(tasks, record, waitMs, ctx, signal) : undefined;
  if (finished) return ctx.codec.toolResult(finished) as unknown as JSONObject;
  return { resultType: 'task', ...wireTask(record) } as unknown as JSONObject;
}

/**
 * Waits up to `waitMs` for a task to complete (SEP-2663's immediate-result shortcut), polling the store at a
 * growing interval; the result when it did, undefined otherwise (the client then gets the task). The task exists
 * and runs, so a poll that fails or does not answer in time also answers with the task.
 */
async function completion(
  tasks: TaskRuntime,
  key: TaskKey,
  waitMs: number,
  ctx: MethodContext,
  signal: AbortSignal | undefined,
): Promise<CallToolResult | undefined> {
  const until = tasks.now() + waitMs;
  const read = { log: ctx.log, ...(signal ? { signal } : {}) };
  let pause = 25;
  for (;;) {
    let record: TaskRecord | undefined;
    try {
      record = await tasks.records.read(key, read);
    } catch (error) {
      ctx.log.warn('task not awaited: its record could not be read', {
        taskId: key.taskId,
        error: errorFields(error),
      });
      return undefined;
    }
    if (record?.status === 'completed' && record.result) return record.result as unknown as CallToolResult;
    if (!record || record.status !== 'working') return undefined;
    const left = until - tasks.now();
    if (left <= 0) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    pause = Math.min(pause * 2, 500);
  }
}
