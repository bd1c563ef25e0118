import type { ResultOffloader } from '../outputs/offloader.ts';
import type { TaskRuntime, TasksOptions } from '../tasks/runtime.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { MethodTable } from './method.ts';
import type { callThroughTask } from './task-calls.ts';

/**
 * The tasks extension as a server's start-up graph sees it: its runtime (records, runs, the task policy) and its
 * methods load on the first task method or the first call of a task tool, never at cold start. Nothing on the
 * start-up path may import them statically: a bundle keeps a module out of the start-up chunks only then.
 */

/** The tasks extension of a server, loaded: its runtime, its methods and the task path of `tools/call`. */
export interface LoadedTasks {
  runtime: TaskRuntime;
  methods: MethodTable;
  callThroughTask: typeof callThroughTask;
}

/** Loads the tasks extension once, on first use. */
export type TaskLoader = () => Promise<LoadedTasks>;

/** The methods of the tasks extension (`methods/tasks.ts`), registered before their code loads. */
export const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

/** A server's tasks extension, built on first use (see `createTaskRuntime`). */
export function taskLoader(
  options: TasksOptions,
  parts: { tools: ToolRegistry; offloader?: ResultOffloader; readTool?: string },
): TaskLoader {
  let loading: Promise<LoadedTasks> | undefined;
  return () => (loading ??= import('./task-chunk.ts').then((chunk) => chunk.loadTasks(options, parts)));
}

/** The task methods, each loading the extension before it answers. */
export function lazyTaskMethods(load: TaskLoader): MethodTable {
  return Object.fromEntries(
    TASK_METHODS.map((method) => [
      method,
      { handler: async (params, ctx) => (await load()).methods[method]!.handler(params, ctx) },
    ]),
  ) as MethodTable;
}
