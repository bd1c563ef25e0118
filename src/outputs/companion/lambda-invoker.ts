import type { LambdaClient } from '@aws-sdk/client-lambda';
import { instrumented, type InstrumentClient } from '../../instrument.ts';
import type { InvokeCompanion } from './client.ts';

/** Which function to invoke and how to reach the Lambda service. */
export interface LambdaInvokerOptions {
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
 * Invokes the companion function synchronously over `@aws-sdk/client-lambda`, imported on first use so the
 * MCP function only loads it when a stored output is read. A function error is a failure, never an answer.
 */
export function lambdaInvoker(options: LambdaInvokerOptions): InvokeCompanion {
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-lambda'); client: LambdaClient }> | undefined;
  const load = () =>
    (loaded ??= import('@aws-sdk/client-lambda').then((sdk) => {
      const region = options.region ?? (options.endpoint ? 'us-east-1' : undefined);
      const client = new sdk.LambdaClient({
        ...(region ? { region } : {}),
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        requestHandler: { connectionTimeout: 3_000, requestTimeout: 25_000, throwOnRequestTimeout: true },
      });
      return { sdk, client: instrumented(client, options.instrument) };
    }));
  return async (payload, call) => {
    const { sdk, client } = await load();
    const out = await client.send(
      new sdk.InvokeCommand({
        FunctionName: options.functionName,
        InvocationType: 'RequestResponse',
        Payload: Buffer.from(payload, 'utf8'),
      }),
      { abortSignal: call?.signal },
    );
    if (out.FunctionError) throw new Error(`the companion function failed (${out.FunctionError})`);
    return Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8');
  };
}
