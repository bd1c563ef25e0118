import type { Context } from 'aws-lambda';
import { spannedTools, type RunInSpan } from '../telemetry/telemetry.ts';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../limits.ts';
import { withKeys, type Logger } from '../log.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import type { ToolDefinition } from '../tools/define.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { PrecompiledValidators } from '../tools/validation.ts';
import { parseTaskJob } from '../tasks/job.ts';
import { createTaskRunner } from '../tasks/runner.ts';
import type { TaskStore } from '../tasks/store.ts';

/** What the worker function is made of: the MCP function's tools, the task store and the offload writer. */
export interface TaskWorkerOptions {
  tools: readonly ToolDefinition[];
  validators?: PrecompiledValidators;
  store: TaskStore;
  /** Large results are stored and linked, as for any tool call. */
  offloader?: ResultOffloader;
  /** The MCP function's tool for reading stored outputs a page at a time, if it has one: notices name it. */
  readTool?: string;
  log: Logger;
  /** Runs each tool handler in a span of its own when tracing records spans. */
  runInSpan?: RunInSpan;
}

/**
 * The task worker's Lambda handler: one asynchronous invocation per run of a task, with the job the MCP function
 * sent (anything else is logged and ignored). Tool failures and protocol errors end up in the task; only a task
 * store that cannot be reached makes the invocation fail, and then the task's lease runs out and it reads failed.
 */
export function createTaskWorker(options: TaskWorkerOptions) {
  const tools = new ToolRegistry(spannedTools(options.tools, options.runInSpan), {
    defaultTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    ...(options.validators ? { validators: options.validators } : {}),
  });
  const runner = createTaskRunner({
    tools,
    store: options.store,
    ...(options.offloader ? { offloader: options.offloader } : {}),
    ...(options.readTool !== undefined ? { readTool: options.readTool } : {}),
  });
  return async function handler(event: unknown, context: Context): Promise<void> {
    const requestId = context.awsRequestId;
    const job = parseTaskJob(event);
    if (!job) {
      options.log.error('not a task job; ignored', { requestId });
      return;
    }
    const deadline =
      typeof context.getRemainingTimeInMillis === 'function'
        ? Date.now() + context.getRemainingTimeInMillis()
        : undefined;
    await runner(job, {
      requestId,
      log: withKeys(options.log, { requestId, taskId: job.taskId }),
      ...(deadline !== undefined ? { deadline } : {}),
    });
  };
}
