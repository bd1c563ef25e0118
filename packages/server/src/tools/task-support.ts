import type { TaskSupport } from './define.ts';

/** Refuses a `task` declaration that could only fail later. */
export function checkTaskSupport(name: string, task: TaskSupport | undefined): void {
  if (task === undefined) return;
  if (task.mode !== 'optional' && task.mode !== 'required')
    throw new Error(
      `Tool "${name}" declares task.mode ${JSON.stringify(task.mode)}; use "optional" or "required"`,
    );
  if (task.afterMs !== undefined && !(Number.isInteger(task.afterMs) && task.afterMs >= 0))
    throw new Error(
      `Tool "${name}" declares task.afterMs ${task.afterMs}; use a whole number of ms, 0 or more`,
    );
  if (task.prepare !== undefined && typeof task.prepare !== 'function')
    throw new Error(`Tool "${name}" declares a task.prepare that is not a function`);
}
