import {
  createOffloader,
  jsonLogger,
  loadConfig,
  loadLogLevel,
  READ_OUTPUT_TOOL,
} from '@mcp-lambda/server/lambda';
import { dynamoTaskStore, s3Storage } from '@mcp-lambda/server/aws';
import { createTaskWorker } from '@mcp-lambda/server/worker';
import { tools } from '../mcp/tools/index.ts';
import { validators } from '../mcp/validators.generated.ts';

// Cold start: the worker runs the MCP function's own tools, one task run per asynchronous invocation. Its role may
// read and write the task table and store outputs under the offload prefix, and nothing else.
const config = loadConfig();
const logger = jsonLogger({ serviceName: `${config.serverName}-worker`, level: loadLogLevel(process.env) });
const { offload, tasks } = config;
if (!tasks.table) throw new Error('Configuration: TASKS_TABLE must name the table of task records');
// Tracing (MCP_TRACING): the run's S3 writes and task record updates join the trace of the call that started it.
const tracing = config.tracing
  ? (await import('../mcp/tracing.ts')).xrayTracing(`${config.serverName}-worker`)
  : undefined;
const instrument = tracing ? { instrument: tracing.instrument } : {};

const offloader = offload.bucket
  ? createOffloader({
      storage: s3Storage({
        bucket: offload.bucket,
        ...(offload.s3Endpoint ? { endpoint: offload.s3Endpoint } : {}),
        ...instrument,
      }),
      prefix: offload.prefix,
      thresholdBytes: offload.thresholdBytes,
      ttlDays: offload.ttlDays,
    })
  : undefined;

/** Lambda entry point, invoked asynchronously by the MCP function with one task job (`packages/server/src/tasks/job.ts`). */
export const handler = createTaskWorker({
  tools,
  validators,
  store: dynamoTaskStore({
    table: tasks.table,
    ...(tasks.dynamodbEndpoint ? { endpoint: tasks.dynamodbEndpoint } : {}),
    ...instrument,
  }),
  ...(offloader ? { offloader } : {}),
  // The MCP function serves read_output for the links (OFFLOAD_READ_TOOL); the notices say so, as its own do.
  ...(offloader && offload.readTool ? { readTool: READ_OUTPUT_TOOL } : {}),
  log: logger,
});
