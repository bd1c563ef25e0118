import { secretsManagerKeys } from '../asking/lazy.ts';
import { dynamoCallState, memoryCallState } from '../asking/stores.ts';
import type { McpServerOptions } from '../server.ts';
import { deferred, once } from '../lazy.ts';
import { dynamoTaskStore } from '../tasks/dynamodb-store.ts';
import type { TaskLauncher } from '../tasks/job.ts';
import type { LambdaTaskLauncherOptions } from '../tasks/launchers.ts';
import type { TaskStore } from '../tasks/store.ts';
import type { FunctionStart } from './start.ts';

/** Records in this process's memory (npm start), their code loaded with the first task. */
const memoryTasks = (): TaskStore =>
  deferred<TaskStore>(async () => (await import('../tasks/memory-store.ts')).memoryTaskStore(), {
    create: true,
    get: true,
    replace: true,
  });

/** Runs started in the worker function, the launcher's code loaded with the first task. */
function workerLauncher(options: LambdaTaskLauncherOptions): TaskLauncher {
  const launcher = once(async () => (await import('../tasks/launchers.ts')).lambdaTaskLauncher(options));
  return async (job, call) => (await launcher())(job, call);
}

/** What the MCP function keeps beyond one request: task records, used approvals, sessions, waiting questions. */
export type StateOptions = Pick<
  McpServerOptions,
  'tasks' | 'approvals' | 'sessions' | 'callState' | 'askPollIntervalMs' | 'requestStateSecret'
>;

/**
 * Tasks: records in DynamoDB and runs in the worker function when deployed (TASKS_TABLE, TASKS_WORKER_FUNCTION_NAME);
 * locally, records in memory and runs in this process, with the same tools and offload policy. Used approvals are
 * recorded in the task table when deployed, so each runs once across instances.
 *
 * Asking the client mid-call (docs/asking.md): handshake-era sessions carry what each client declared at initialize,
 * sealed with MCP_SESSION_SECRET (npm start generates one) or the Secrets Manager secret the stack creates, read on
 * the first request that needs it. The same keys seal 2026-07-28 requestState (each through a derivation of its
 * own), so any instance opens the retry of an inputRequired exchange; MCP_REQUEST_STATE_SECRET overrides them.
 * Questions wait for their answers, cancellations for their calls and cut streams for their clients in the call
 * state's table the stack creates with the streaming API (MCP_CALL_STATE_TABLE), else in this process's memory (one
 * instance: npm start).
 */
export function stateOptions({ config, logger, aws, telemetry }: FunctionStart): StateOptions {
  const { tasks: taskConfig, sessions: sessionConfig, asking } = config;
  const endpoint = taskConfig.dynamodbEndpoint ? { endpoint: taskConfig.dynamodbEndpoint } : {};
  const taskTable = taskConfig.table && { table: taskConfig.table, ...endpoint, ...aws };
  const sessions = sessionConfig && {
    keys: sessionConfig.secrets ?? secretsManagerKeys(sessionConfig.secretArn!, aws),
    ttlMs: sessionConfig.ttlMs,
  };
  // A function an older construct configured: it still works, and says once what to change.
  if (asking.tableFromAskTable)
    logger.warn('MCP_ASK_TABLE is the old name of MCP_CALL_STATE_TABLE: redeploy with the current construct');
  return {
    tasks: {
      store: taskTable ? dynamoTaskStore(taskTable) : memoryTasks(),
      ...(taskConfig.workerFunctionName
        ? {
            launch: workerLauncher({
              functionName: taskConfig.workerFunctionName,
              ...aws,
              ...(telemetry ? { traceCarrier: telemetry.carrier } : {}),
            }),
          }
        : {}),
      ttlMs: taskConfig.ttlMs,
      pollIntervalMs: taskConfig.pollIntervalMs,
      log: logger,
    },
    approvals: taskTable ? { dynamodb: taskTable } : {},
    ...(config.requestStateSecret ? { requestStateSecret: config.requestStateSecret } : {}),
    ...(sessions ? { sessions } : {}),
    callState: asking.table
      ? dynamoCallState({ table: asking.table, ...endpoint, ...aws })
      : memoryCallState(),
    askPollIntervalMs: asking.pollIntervalMs,
  };
}
