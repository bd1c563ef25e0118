import { once } from '../lazy.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import type { TasksOptions } from '../tasks/runtime.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { MethodTable } from './method.ts';
import type { LoadedTasks } from './task-extension.ts';

/**
 * The tasks extension as a server's start-up graph sees it: its code (`task-extension.ts`: records, runs, the task
 * policy, its methods) is imported with `await import()` on the first task method or the first call of a task tool,
 * never at cold start. Nothing on the start-up path imports it statically (type imports aside): a bundle keeps a
 * module out of the start-up graph only then.
 */

/** Loads the tasks extension once, on first use. */
export type TaskLoader = () => Promise<LoadedTasks>;

/** The methods of the tasks extension (`methods/tasks.ts`), registered before their code loads. */
export const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

/** A server's tasks extension, built on first use (see `createTaskRuntime`). */
export function taskLoader(
  options: TasksOptions,
  parts: { tools: ToolRegistry; offloader?: ResultOffloader; readTool?: string },
): TaskLoader {
  return once(async () => (await import('./task-extension.ts')).loadTasks(options, parts));
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
