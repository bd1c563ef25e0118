import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '../aws-client.ts';
import { eraToWire } from '../protocol/versions.ts';
import type { TaskJob, TaskLauncher } from './job.ts';

/**
 * A job as the invocation payload carries it: JSON, the era by its wire name (`parseTaskJob` reads it back). Here,
 * not in job.ts, so the MCP function's start-up graph gets no part of the worker's parsing (the task policy).
 */
export const taskJobPayload = (job: TaskJob, trace?: Record<string, string>): string =>
  JSON.stringify({
    ...job,
    era: eraToWire(job.era),
    ...(trace && Object.keys(trace).length ? { trace } : {}),
  });

/** Which worker function to start and how to reach the Lambda service (request timeout default 5,000 ms). */
export interface LambdaTaskLauncherOptions extends AwsClientOptions {
  functionName: string;
  /** The calling request's trace context (W3C fields), put in the job so the worker's run joins its trace. */
  traceCarrier?: () => Record<string, string>;
}

/**
 * Starts each run in the worker function by an asynchronous invocation (`InvocationType: Event`): Lambda queues
 * the job and answers 202 at once, and the worker may run for up to 15 minutes. `@aws-sdk/client-lambda` is loaded
 * on first use. A refused invocation throws, so the task is never left waiting for a worker that was not started;
 * so does one that has not been accepted when the caller's signal fires (the invocation's deadline).
 */
export function lambdaTaskLauncher(options: LambdaTaskLauncherOptions): TaskLauncher {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-lambda'),
    (sdk) => new sdk.LambdaClient(awsClientConfig(options, 5_000)),
    options.instrument,
  );
  return async (job, call) => {
    const { sdk, client } = await load();
    const out = await client.send(
      new sdk.InvokeCommand({
        FunctionName: options.functionName,
        InvocationType: 'Event',
        Payload: Buffer.from(taskJobPayload(job, options.traceCarrier?.()), 'utf8'),
      }),
      { abortSignal: call?.signal },
    );
    if (out.StatusCode !== 202) throw new Error(`the worker was not started (status ${out.StatusCode})`);
  };
}
