/**
 * Lambda inputs for the in-process benchmarks: the API Gateway HTTP API (payload 2.0) event a request becomes on
 * the $default stage, and a Lambda context with a 30 s deadline.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { WireRequest } from '@mcp-lambda/dev/load';

/** The host API Gateway would put in the event. */
const GATEWAY_HOST = 'abcdef1234.execute-api.us-east-1.amazonaws.com';

/** Builds the event API Gateway delivers for one POST to `path`. */
export function apiGatewayEvent(request: WireRequest, path = '/mcp'): APIGatewayProxyEventV2 {
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { host: GATEWAY_HOST, 'user-agent': 'mcp-bench', ...request.headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdef1234',
      domainName: GATEWAY_HOST,
      domainPrefix: 'abcdef1234',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'mcp-bench' },
      requestId: 'bench-request',
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
    body: request.body,
    isBase64Encoded: false,
  };
}

let invocation = 0;

/** A Lambda context whose deadline is 30 s from now, as a 30 s function timeout gives. */
export function lambdaContext(timeoutMs = 30_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:bench',
    memoryLimitInMB: '1024',
    awsRequestId: `bench-${++invocation}`,
    logGroupName: '/aws/lambda/bench',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The handler shape every benchmarked function exports. */
export type BenchHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;
