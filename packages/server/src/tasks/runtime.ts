import { Defaults } from '../limits.ts';
import { silentLogger, type Logger } from '../log.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { TaskLauncher } from './job.ts';
import { inProcessLauncher } from './in-process-launcher.ts';
import { taskRecords, type TaskRecords } from './records.ts';
import { createTaskRunner } from './runner.ts';
import type { TaskStore } from './store.ts';

/** The tasks extension of a server (`McpServerOptions.tasks`): where records live and who runs them. */
export interface TasksOptions {
  /** Durable task records: `dynamoTaskStore` deployed, `memoryTaskStore` in one process. */
  store: TaskStore;
  /**
   * Starts a run in a worker: `lambdaTaskLauncher` deployed. Default: run tasks in this process (`npm start`,
   * tests), with the server's own tools and offloader.
   */
  launch?: TaskLauncher;
  /** `ttlMs` of every task: how long it stays readable after creation. Default 1 hour. */
  ttlMs?: number;
  /** `pollIntervalMs` suggested to clients. Default 1,000. */
  pollIntervalMs?: number;
  /**
   * Timings of in-process runs, for tests only (the deployed worker always uses `TaskLimits`): how often a run
   * renews its lease, how far, and the worker's time limit.
   */
  inProcess?: { heartbeatMs?: number; leaseMs?: number; timeoutMs?: number };
  /** Where in-process runs write their log lines. Default: nowhere. */
  log?: Logger;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** What the task methods and `tools/call` share at run time. */
export interface TaskRuntime {
  store: TaskStore;
  records: TaskRecords;
  launch: TaskLauncher;
  ttlMs: number;
  pollIntervalMs: number;
  now: () => number;
}

/** Builds a server's task runtime; without a launcher, tasks run in this process on the server's own tools. */
export function createTaskRuntime(
  options: TasksOptions,
  parts: { tools: ToolRegistry; offloader?: ResultOffloader; readTool?: string },
): TaskRuntime {
  const now = options.now ?? Date.now;
  const { heartbeatMs, leaseMs, timeoutMs } = options.inProcess ?? {};
  const launch =
    options.launch ??
    inProcessLauncher(
      createTaskRunner({
        tools: parts.tools,
        store: options.store,
        now,
        ...(parts.offloader ? { offloader: parts.offloader } : {}),
        ...(parts.readTool !== undefined ? { readTool: parts.readTool } : {}),
        ...(heartbeatMs !== undefined ? { heartbeatMs } : {}),
        ...(leaseMs !== undefined ? { leaseMs } : {}),
      }),
      { log: options.log ?? silentLogger, ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
    );
  return {
    store: options.store,
    records: taskRecords(options.store, now),
    launch,
    ttlMs: options.ttlMs ?? Defaults.taskTtlMs,
    pollIntervalMs: options.pollIntervalMs ?? Defaults.taskPollIntervalMs,
    now,
  };
}
