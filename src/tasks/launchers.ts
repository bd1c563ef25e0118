import { nodeCrypto } from '../crypto.ts';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import { instrumented, type InstrumentClient } from '../instrument.ts';
import { Defaults } from '../limits.ts';
import { errorFields, withKeys, type Logger } from '../log.ts';
import type { TaskJob, TaskLauncher } from './job.ts';
import type { TaskRunner } from './runner.ts';

/**
 * Runs every task in this process, as the worker function would (`npm start`, tests, single-process embedding):
 * the run starts after the request that created it has been answered, and gets the worker's time limit.
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

/** Which worker function to start and how to reach the Lambda service. */
export interface LambdaTaskLauncherOptions {
  functionName: string;
  /** Custom Lambda endpoint (tests). Default: the AWS endpoint of the region. */
  endpoint?: string;
  /** Default: the `AWS_REGION` of the environment, or us-east-1 with a custom endpoint. */
  region?: string;
  /** Default: the SDK's provider chain (the function's role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Wraps the SDK client when it is made (tracing). Default: none. */
  instrument?: InstrumentClient;
}

/**
 * Starts each run in the worker function by an asynchronous invocation (`InvocationType: Event`): Lambda queues
 * the job and answers 202 at once, and the worker may run for up to 15 minutes. `@aws-sdk/client-lambda` is loaded
 * on first use. A refused invocation throws, so the task is never left waiting for a worker that was not started;
 * so does one that has not been accepted when the caller's signal fires (the invocation's deadline).
 */
export function lambdaTaskLauncher(options: LambdaTaskLauncherOptions): TaskLauncher {
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-lambda'); client: LambdaClient }> | undefined;
  const load = () =>
    (loaded ??= import('@aws-sdk/client-lambda').then((sdk) => {
      const region = options.region ?? (options.endpoint ? 'us-east-1' : undefined);
      const client = new sdk.LambdaClient({
        ...(region ? { region } : {}),
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        // Without throwOnRequestTimeout the SDK only warns when a request goes idle, and waits on.
        requestHandler: { connectionTimeout: 3_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
      });
      return { sdk, client: instrumented(client, options.instrument) };
    }));
  return async (job, call) => {
    const { sdk, client } = await load();
    const out = await client.send(
      new sdk.InvokeCommand({
        FunctionName: options.functionName,
        InvocationType: 'Event',
        Payload: Buffer.from(JSON.stringify(job), 'utf8'),
      }),
      { abortSignal: call?.signal },
    );
    if (out.StatusCode !== 202) throw new Error(`the worker was not started (status ${out.StatusCode})`);
  };
}
