/**
 * A task worker in a process of its own, as Lambda runs one: `node --import tsx task-worker-process.ts` with the
 * job in TASK_JOB and the task table in TASKS_TABLE / DYNAMODB_ENDPOINT. It runs the conformance task tools through
 * `createTaskWorker` over the DynamoDB store, so a test can kill it mid-run like a crashed or timed-out worker.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { silentLogger } from '@mcp-lambda/server/lambda';
import { dynamoTaskStore } from '@mcp-lambda/server/aws';
import { createTaskWorker } from '@mcp-lambda/server/worker';
import { conformanceTaskTools } from '../conformance/fixtures/tasks.ts';
import { LOCAL_DYNAMO_CREDENTIALS } from '@mcp-lambda/dev/testing';

const { TASK_JOB, TASKS_TABLE, DYNAMODB_ENDPOINT } = process.env;
const handler = createTaskWorker({
  tools: conformanceTaskTools,
  store: dynamoTaskStore({
    table: TASKS_TABLE!,
    endpoint: DYNAMODB_ENDPOINT!,
    credentials: LOCAL_DYNAMO_CREDENTIALS,
  }),
  log: silentLogger,
});
const deadline = Date.now() + 900_000;
process.stdout.write('running\n');
await handler(JSON.parse(TASK_JOB!), {
  awsRequestId: randomUUID(),
  getRemainingTimeInMillis: () => deadline - Date.now(),
} as Context);
process.stdout.write('finished\n');
