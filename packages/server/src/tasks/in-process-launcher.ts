import { nodeCrypto } from '../crypto.ts';
import { Defaults } from '../limits.ts';
import { errorFields, withKeys, type Logger } from '../log.ts';
import type { TaskJob, TaskLauncher } from './job.ts';
import type { TaskRunner } from './runner.ts';

/**
 * Runs every task in this process, as the worker function would (`npm start`, tests, single-process embedding):
 * the run starts after the request that created it has been answered, and gets the worker's time limit. Only the
 * tasks extension uses it, so it loads with that extension, apart from the launchers a function builds at start-up.
 */
export function inProcessLauncher(
  runner: TaskRunner,
  options: { log: Logger; timeoutMs?: number },
): TaskLauncher {
  const timeoutMs = options.timeoutMs ?? Defaults.workerFunctionTimeoutSeconds * 1000;
  return async (job: TaskJob) => {
    const requestId = nodeCrypto().randomUUID();
    const log = withKeys(options.log, { requestId, taskId: job.taskId });
    setImmediate(() => {
      runner(job, { requestId, deadline: Date.now() + timeoutMs, log }).catch((error) =>
        log.error('task run failed', { error: errorFields(error, { stack: true }) }),
      );
    });
  };
}
