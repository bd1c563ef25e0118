import { deadlineSignal } from '../deadline.ts';
import { checkInputRequests, InputRequired } from '../input/input-required.ts';
import { TaskLimits } from '../limits.ts';
import { errorFields, type Logger } from '../log.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import { InternalError, McpError } from '../protocol/errors.ts';
import type { JSONValue } from '../protocol/types.ts';
import { ToolError } from '../contracts/tool-error.ts';
import type { CallContext, ToolRegistry } from '../tools/registry.ts';
import { fitResult } from '../tools/result.ts';
import type { TaskJob } from './job.ts';
import { claim, renew, settle, type RunOutcome } from './policy.ts';
import { taskRecords, type TaskRecords } from './records.ts';
import type { TaskStore, TaskStoreCallOptions } from './store.ts';
import type { TaskKey, TaskRecord } from './types.ts';
import { monotonicMs } from '../clock.ts';

/** What a worker runs tasks with: the same tools and offload policy as the MCP function, and the task store. */
export interface TaskRunnerOptions {
  tools: ToolRegistry;
  store: TaskStore;
  /** Large results are stored and linked, as for any tool call; absent when no storage is configured. */
  offloader?: ResultOffloader;
  /** The tool the MCP function reads stored outputs with a page at a time, when it has one: notices name it. */
  readTool?: string;
  /** Clock (tests). Default `Date.now`. */
  now?: () => number;
  /** How often a running task renews its lease and looks for a cancellation. Default `TaskLimits.heartbeatMs`. */
  heartbeatMs?: number;
  /** How far each renewal moves the lease. Default `TaskLimits.leaseMs`. */
  leaseMs?: number;
}

/** The worker invocation a run happens in. */
interface RunContext {
  requestId: string;
  /** Epoch ms at which the invocation is stopped (the worker's time limit), if it has one. */
  deadline?: number;
  log: Logger;
}

/** Runs one start of a task to its outcome. Never throws for the tool's sake; a store failure is thrown. */
export type TaskRunner = (job: TaskJob, run: RunContext) => Promise<void>;

/** Longest status message a progress report leaves on a task. */
const MAX_STATUS_MESSAGE = 500;

/**
 * The worker's side of a task: claim the due run (once), run the tool with a heartbeat that renews the lease,
 * carries progress into the task's status message and aborts the tool when the task was cancelled, then record the
 * outcome (a result through the offload policy, a request for input, or a protocol error) over the claimed run.
 * Every store call ends before the invocation's deadline; an outcome that cannot be recorded by then is thrown,
 * and the task's lease then runs out (it reads failed).
 */
export function createTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? TaskLimits.leaseMs;
  const heartbeatMs = options.heartbeatMs ?? TaskLimits.heartbeatMs;

  return async function runTask(job, run) {
    const { log } = run;
    const records = taskRecords(options.store, now);
    const outOfTime = deadlineSignal(run.deadline);
    const call = outOfTime ? { signal: outOfTime } : {};
    const key: TaskKey = { taskId: job.taskId, ...(job.owner !== undefined ? { owner: job.owner } : {}) };
    const claimed = await records.update(key, (r) => claim(r, job.round, now(), now() + leaseMs), call);
    if (!claimed) {
      log.warn('task run not started: cancelled, expired, lapsed or already taken', {
        taskId: job.taskId,
        round: job.round,
      });
      return;
    }
    const started = monotonicMs();
    const controller = new AbortController();
    const beat = heartbeat(records, key, job.round, { now, leaseMs, heartbeatMs, log, call }, controller);
    let outcome: RunOutcome;
    try {
      outcome = await runTool(options, claimed, job, run, { signal: controller.signal, report: beat.report });
    } catch (error) {
      outcome = { kind: 'error', error: protocolError(error, run, claimed.tool) };
    } finally {
      beat.stop();
    }
    const settled = await records.update(key, (r) => settle(r, job.round, outcome, now()), call);
    log.info('task run', {
      taskId: job.taskId,
      tool: claimed.tool,
      round: job.round,
      principal: job.principal?.subject ?? 'anonymous',
      outcome: settled?.status ?? 'discarded (the task was cancelled or had lapsed)',
      durationMs: Math.round(monotonicMs() - started),
    });
  };
}

/** One run of the tool, as an outcome for the task. */
async function runTool(
  options: TaskRunnerOptions,
  record: TaskRecord,
  job: TaskJob,
  run: RunContext,
  control: { signal: AbortSignal; report(message: string): void },
): Promise<RunOutcome> {
  const { tools, offloader } = options;
  const now = options.now ?? Date.now;
  const tool = record.tool;
  const principalKey = job.principal?.key;
  const offload = {
    tool,
    requestId: run.requestId,
    log: run.log,
    ...(principalKey !== undefined ? { principal: principalKey } : {}),
    ...(options.readTool !== undefined ? { readTool: options.readTool } : {}),
    // Storing the result ends in time to record the outcome before the worker is stopped.
    ...(run.deadline !== undefined ? { deadline: run.deadline } : {}),
  };
  const ctx: CallContext = {
    requestId: run.requestId,
    era: job.era,
    protocolVersion: job.protocolVersion,
    log: run.log,
    ...(job.principal !== undefined ? { principal: job.principal } : {}),
    // A task's run has no stream of the client's to cut.
    closeStream: () => false,
    progress(progress, total, message) {
      const amount = total !== undefined ? `${progress} of ${total}` : `${progress}`;
      control.report((message ? `${message} (${amount})` : amount).slice(0, MAX_STATUS_MESSAGE));
    },
    // A task has no stream to carry log notifications (SEP-2663): they go to the worker's log instead.
    notify: (level, data) => run.log.debug('tool message', { tool, level, data: data as JSONValue }),
    store: async (request, signal) => {
      if (!offloader)
        throw new ToolError(
          'This server has no storage for outputs (OFFLOAD_BUCKET is not set), so nothing can be stored.',
        );
      return offloader.store(request, { ...offload, ...(signal ? { signal } : {}) });
    },
    clientCapabilities: job.clientCapabilities,
    inputResponses: record.input?.responses ?? {},
    requestState: record.input?.state,
  };
  const remaining = run.deadline === undefined ? Infinity : run.deadline - now() - TaskLimits.workerReserveMs;
  const result = await tools.call(tool, record.arguments, ctx, remaining, {
    signal: control.signal,
    defaultTimeoutMs: Infinity,
    // Streamed outputs are stored in parts as the tool produces them, as in the MCP function.
    ...(offloader ? { streams: offloader.streams(offload) } : {}),
  });
  if (result instanceof InputRequired) {
    checkInputRequests(result, job.clientCapabilities);
    return {
      kind: 'input',
      inputRequests: result.inputRequests,
      ...(result.state !== undefined ? { state: result.state } : {}),
    };
  }
  const final = offloader
    ? await offloader.apply(result, {
        ...offload,
        structuredContentRequired: tools.hasOutputSchema(tool),
        maxInlineBytes: TaskLimits.maxInlineResultBytes,
      })
    : result;
  return { kind: 'result', result: fitResult(final, tool, offloader !== undefined) };
}

/** The JSON-RPC error a run failed with: a protocol error as it is, anything else as a logged internal error. */
function protocolError(error: unknown, run: RunContext, tool: string) {
  if (error instanceof McpError)
    return {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined ? { data: error.data as JSONValue } : {}),
    };
  run.log.error('task run failed', { tool, error: errorFields(error, { stack: true }) });
  const internal = new InternalError(run.requestId, 'the task');
  return { code: internal.code, message: internal.message };
}

/**
 * Renews the run's lease every `heartbeatMs`, with the latest progress message; when the task is no longer this
 * run's (cancelled, expired, lapsed) it aborts the tool. A failed renewal is retried at the next beat: the lease
 * outlasts several.
 */
function heartbeat(
  records: TaskRecords,
  key: TaskKey,
  round: number,
  timing: {
    now: () => number;
    leaseMs: number;
    heartbeatMs: number;
    log: Logger;
    call: TaskStoreCallOptions;
  },
  controller: AbortController,
) {
  const { now, leaseMs, heartbeatMs, log, call } = timing;
  let message: string | undefined;
  let written: string | undefined;
  let busy = false;
  const beat = async () => {
    if (busy) return;
    busy = true;
    try {
      const pending = message !== written ? message : undefined;
      const renewed = await records.update(
        key,
        (r) => renew(r, round, now(), now() + leaseMs, pending),
        call,
      );
      if (!renewed) controller.abort(new Error('the task is no longer running'));
      else written = pending ?? written;
    } catch (error) {
      log.warn('task heartbeat failed', { taskId: key.taskId, error: errorFields(error) });
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void beat(), heartbeatMs);
  timer.unref();
  return {
    report(latest: string) {
      message = latest;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
