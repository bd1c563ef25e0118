import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { HttpRequest, HttpResponse, InvocationContext } from '../http/types.ts';
import { withKeys, type Logger } from '../log.ts';
import { eventBody } from './event-body.ts';
import { fromRestEvent, toRestResult } from './rest-event.ts';

/** Translates an API Gateway HTTP API (payload 2.0) event into a neutral request. */
export function toHttpRequest(event: APIGatewayProxyEventV2): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const stage = event.requestContext?.stage;
  let path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
  // Named stages prefix the path with the stage; the $default stage does not.
  if (stage && stage !== '$default') {
    if (path === `/${stage}`) path = '/';
    else if (path.startsWith(`/${stage}/`)) path = path.slice(stage.length + 1);
  }
  const body = eventBody(event);
  return {
    method: event.requestContext?.http?.method ?? 'GET',
    path,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(event.rawQueryString ? { query: event.rawQueryString } : {}),
    ...(event.cookies?.length ? { cookies: event.cookies } : {}),
  };
}

/** Translates a neutral response into the API Gateway result shape. */
export function toLambdaResult(response: HttpResponse): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: response.status,
    headers: response.headers,
    body: response.body,
    isBase64Encoded: false,
    ...(response.cookies?.length ? { cookies: response.cookies } : {}),
  };
}

type NeutralHandler = (req: HttpRequest, ctx: InvocationContext) => Promise<HttpResponse>;

/** The invocation context of one Lambda call: its request id, its logger and its deadline. */
function invocation(log: Logger, event: unknown, context: Context): InvocationContext {
  const requestId = context.awsRequestId;
  const deadline =
    typeof context.getRemainingTimeInMillis === 'function'
      ? Date.now() + context.getRemainingTimeInMillis()
      : undefined;
  return {
    requestId,
    log: withKeys(log, { requestId }),
    platform: { event, context },
    ...(deadline !== undefined ? { deadline } : {}),
  };
}

/** Wraps a neutral handler as a Lambda handler for API Gateway HTTP API events. */
export function createLambdaHandler(handle: NeutralHandler, log: Logger) {
  return async function handler(
    event: APIGatewayProxyEventV2,
    context: Context,
  ): Promise<APIGatewayProxyStructuredResultV2> {
    return toLambdaResult(await handle(toHttpRequest(event), invocation(log, event, context)));
  };
}

/**
 * Wraps a neutral handler as a Lambda handler for either API Gateway proxy integration: HTTP API events (payload
 * 2.0, which carry `rawPath`) and REST API events (payload 1.0), each answered in its own result shape. The
 * authorization bridge runs behind either (behind a custom domain, the streaming REST API carries its routes).
 */
export function createProxyLambdaHandler(handle: NeutralHandler, log: Logger) {
  return async function handler(
    event: APIGatewayProxyEventV2 | APIGatewayProxyEvent,
    context: Context,
  ): Promise<APIGatewayProxyStructuredResultV2 | APIGatewayProxyResult> {
    const ctx = invocation(log, event, context);
    if ('rawPath' in event) return toLambdaResult(await handle(toHttpRequest(event), ctx));
    return toRestResult(await handle(fromRestEvent(event), ctx));
  };
}
