import type { ResultOffloader } from '../outputs/offloader.ts';
import { createTaskRuntime, type TaskRuntime, type TasksOptions } from '../tasks/runtime.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { MethodTable } from './method.ts';
import { callThroughTask } from './task-calls.ts';
import { taskMethods } from './tasks.ts';

/** The tasks extension of a server, loaded: its runtime, its methods and the task path of `tools/call`. */
export interface LoadedTasks {
  runtime: TaskRuntime;
  methods: MethodTable;
  callThroughTask: typeof callThroughTask;
}

/**
 * The tasks extension of a server, built (see `createTaskRuntime`). `lazy-tasks.ts` imports this module with
 * `await import()` on first use, so none of it is in a server's start-up graph.
 */
export function loadTasks(
  options: TasksOptions,
  parts: { tools: ToolRegistry; offloader?: ResultOffloader; readTool?: string },
): LoadedTasks {
  const runtime = createTaskRuntime(options, parts);
  return { runtime, methods: taskMethods(runtime), callThroughTask };
}
