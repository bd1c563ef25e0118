/**
 * The entry of the tasks extension's lazily loaded chunk (`lazy-tasks.ts` imports it with `import()`): builds the
 * runtime and the methods. It imports the public module for the reason `outputs/offloader-chunk.ts` gives: the
 * modules the start-up graph shares with this chunk then stay in one start-up chunk, not many small files.
 */
import '../index.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import { createTaskRuntime, type TasksOptions } from '../tasks/runtime.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { LoadedTasks } from './lazy-tasks.ts';
import { callThroughTask } from './task-calls.ts';
import { taskMethods } from './tasks.ts';

/** The tasks extension of a server, built (see `createTaskRuntime`). */
export function loadTasks(
  options: TasksOptions,
  parts: { tools: ToolRegistry; offloader?: ResultOffloader; readTool?: string },
): LoadedTasks {
  const runtime = createTaskRuntime(options, parts);
  return { runtime, methods: taskMethods(runtime), callThroughTask };
}
