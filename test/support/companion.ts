import { LOCAL_S3_CREDENTIALS, startLocalLambda } from '@mcp-lambda/dev';
import { lambdaInvoker } from '@mcp-lambda/server/aws';
import type { ToolDefinition } from '@mcp-lambda/server';
import { createOffloader, remoteStoredOutputs } from '@mcp-lambda/server/lambda';
import { serveServer, type RunningServer, type TestS3 } from '@mcp-lambda/dev/testing';

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
 * A server of test tools beside the real MCP function, as the read_output interop tests use it: it stores outputs in
 * the local S3 in small parts (over 32 KB, parts of 48 KB), and reads them back through the companion, invoking it
 * as the MCP function does.
 */
export function serveInParts(
  s3: TestS3,
  companion: TestCompanion,
  info: { name: string; version: string },
  tools: ToolDefinition[],
): Promise<RunningServer> {
  const reader = remoteStoredOutputs({
    prefix: 'outputs/',
    invoke: lambdaInvoker({
      functionName: companion.name,
      endpoint: companion.endpoint,
      credentials: { ...LOCAL_S3_CREDENTIALS },
    }),
  });
  return serveServer({
    info,
    tools,
    resources: [reader],
    outputPages: reader,
    offloader: createOffloader({
      storage: s3.storage(),
      prefix: 'outputs/',
      thresholdBytes: 32 * 1024,
      ttlDays: 1,
      limits: { partBudgetBytes: 48 * 1024 },
    }),
  });
}
