import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '../../aws-client.ts';
import type { InvokeCompanion } from './ask.ts';

/** Which function to invoke and how to reach the Lambda service (request timeout default 25,000 ms). */
export interface LambdaInvokerOptions extends AwsClientOptions {
  functionName: string;
  /** The calling request's trace context (W3C fields), added to each request so the companion's read joins it. */
  traceCarrier?: () => Record<string, string>;
}

/** A request with the caller's trace context added (`trace`), when it has one. */
function traced(payload: string, trace: Record<string, string> | undefined): string {
  if (!trace || Object.keys(trace).length === 0) return payload;
  return JSON.stringify({ ...(JSON.parse(payload) as object), trace });
}

/**
 * Invokes the companion function synchronously over `@aws-sdk/client-lambda`, imported on first use so the
 * MCP function only loads it when a stored output is read. A function error is a failure, never an answer.
 */
export function lambdaInvoker(options: LambdaInvokerOptions): InvokeCompanion {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-lambda'),
    (sdk) => new sdk.LambdaClient(awsClientConfig(options, 25_000)),
    options.instrument,
  );
  return async (payload, call) => {
    const { sdk, client } = await load();
    const out = await client.send(
      new sdk.InvokeCommand({
        FunctionName: options.functionName,
        InvocationType: 'RequestResponse',
        Payload: Buffer.from(traced(payload, options.traceCarrier?.()), 'utf8'),
      }),
      { abortSignal: call?.signal },
    );
    if (out.FunctionError) throw new Error(`the companion function failed (${out.FunctionError})`);
    return Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
  };
}
