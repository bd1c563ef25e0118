import { LOCAL_S3_CREDENTIALS, startLocalLambda } from '@mcp-lambda/dev';
import { lambdaInvoker } from '@mcp-lambda/server/aws';
import { remoteStoredOutputs } from '@mcp-lambda/server/lambda';

/** The companion function running locally, and what reaching it takes. */
export interface TestCompanion {
  /** What the MCP function reads to invoke it (`RESOURCES_FUNCTION_NAME`, `AWS_ENDPOINT_URL_LAMBDA`). */
  env: Record<string, string>;
  name: string;
  endpoint: string;
  /** Every invocation, oldest first: the event the MCP function sent. */
  invocations: { version?: unknown; query?: { mode?: string } }[];
  close(): Promise<void>;
}

/**
 * Serves the real companion function (`functions/companion/handler.ts`) behind the loopback Lambda Invoke API
 * stand-in that `npm start` uses. The module reads its configuration at import: set the bucket's environment in
 * `process.env` first (vitest isolates modules per file).
 */
export async function startCompanion(name = 'mcp-resources-test'): Promise<TestCompanion> {
  const { handler } = await import('../../functions/companion/handler.ts');
  const invocations: TestCompanion['invocations'] = [];
  const lambda = await startLocalLambda({
    functions: { [name]: handler },
    onInvoke: (_name, event) => invocations.push(event as TestCompanion['invocations'][number]),
  });
  return {
    env: { RESOURCES_FUNCTION_NAME: name, AWS_ENDPOINT_URL_LAMBDA: lambda.endpoint },
    name,
    endpoint: lambda.endpoint,
    invocations,
    close: lambda.close,
  };
}

/**
 * A reader of stored outputs through the companion, for a server of test tools beside the real MCP function (its
 * `resources` and `outputPages`): it invokes the companion as the MCP function does.
 */
export function companionReader(companion: TestCompanion, prefix = 'outputs/') {
  return remoteStoredOutputs({
    prefix,
    invoke: lambdaInvoker({
      functionName: companion.name,
      endpoint: companion.endpoint,
      credentials: { ...LOCAL_S3_CREDENTIALS },
    }),
  });
}
