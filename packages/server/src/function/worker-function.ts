import type { Context } from 'aws-lambda';
import { READ_OUTPUT_TOOL } from '../outputs/read-tool.ts';
import { dynamoTaskStore } from '../tasks/dynamodb-store.ts';
import { createTaskWorker, type TaskWorkerOptions } from './task-worker.ts';
import { offloadWriter } from './outputs.ts';
import { tracedPayload } from '../telemetry/telemetry.ts';
import { startFunction } from './start.ts';

/** The worker's parts that are the app's own: the MCP function's tools and their validators. */
export interface TaskWorkerFunctionOptions extends Pick<TaskWorkerOptions, 'tools' | 'validators'> {
  /** The environment the function is configured by. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The task worker function's Lambda handler, built from the environment: it runs the MCP function's own tools, one
 * task run per asynchronous invocation by the MCP function (a job of `packages/server/src/tasks/job.ts`). Its role
 * may read and write the task table and store outputs under the offload prefix, and nothing else. With MCP_TRACING a
 * run's S3 writes and task record updates join the trace of the call that started it.
 */
export async function createTaskWorkerFunction(options: TaskWorkerFunctionOptions) {
  const { env = process.env, tools, validators } = options;
  const { config, logger, aws, telemetry } = await startFunction(env, '-worker');
  const { offload, tasks } = config;
  if (!tasks.table) throw new Error('Configuration: TASKS_TABLE must name the table of task records');
  const writer = offloadWriter(offload, aws);
  const worker = createTaskWorker({
    tools,
    ...(telemetry ? { runInSpan: telemetry.span } : {}),
    ...(validators ? { validators } : {}),
    store: dynamoTaskStore({
      table: tasks.table,
      ...(tasks.dynamodbEndpoint ? { endpoint: tasks.dynamodbEndpoint } : {}),
      ...aws,
    }),
    ...(writer ? { offloader: writer.offloader } : {}),
    // The MCP function serves read_output for the links (OFFLOAD_READ_TOOL); the notices say so, as its own do.
    ...(writer && offload.readTool ? { readTool: READ_OUTPUT_TOOL } : {}),
    log: logger,
  });
  // A job carries its caller's trace context (`trace`) whether or not this function traces: the job never sees it.
  // With tracing, the run continues that trace, its spans sent as it ends.
  return (event: unknown, context: Context) => {
    const { trace, payload } = tracedPayload(event);
    if (!telemetry) return worker(payload, context);
    const left = () => (context.getRemainingTimeInMillis?.() ?? 10_000) - 250;
    return telemetry.continued(trace, 'tasks/run', () => worker(payload, context), left);
  };
}
