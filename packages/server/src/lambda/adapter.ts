import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { HttpRequest, HttpResponse, InvocationContext } from '../wire/types.ts';
import { withKeys, type Logger } from '../log.ts';
import {
  eventBody,
  objectField,
  textField,
  textListField,
  textMapField,
  translateEvent,
} from './event-fields.ts';
import { fromRestEvent, toRestResult } from './rest-event.ts';

/**
 * Translates an API Gateway HTTP API (payload 2.0) event into a neutral request. Each field is read with the type
 * API Gateway gives it; any other (a direct invoke can send anything) throws a `MalformedEventError`.
 */
export function toHttpRequest(event: APIGatewayProxyEventV2): HttpRequest {
  const fields = objectField(event, 'event');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(textMapField(fields.headers, 'headers')))
    headers[name.toLowerCase()] = value;
  const context = objectField(fields.requestContext, 'requestContext', true);
  const http = objectField(context?.http, 'requestContext.http', true);
  const stage = textField(context?.stage, 'requestContext.stage');
  let path = textField(fields.rawPath, 'rawPath') ?? textField(http?.path, 'requestContext.http.path') ?? '/';
  // Named stages prefix the path with the stage; the $default stage does not.
  if (stage && stage !== '$default') {
    if (path === `/${stage}`) path = '/';
    else if (path.startsWith(`/${stage}/`)) path = path.slice(stage.length + 1);
  }
  const body = eventBody(fields);
  const query = textField(fields.rawQueryString, 'rawQueryString');
  const cookies = textListField(fields.cookies, 'cookies');
  return {
    method: textField(http?.method, 'requestContext.http.method') ?? 'GET',
    path,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(query ? { query } : {}),
    ...(cookies?.length ? { cookies } : {}),
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
    const ctx = invocation(log, event, context);
    const translated = translateEvent(toHttpRequest, event, ctx.log);
    return toLambdaResult(
      'rejected' in translated ? translated.rejected : await handle(translated.request, ctx),
    );
  };
}

/**
 * The neutral request of a proxy event of either payload version: 2.0 events (HTTP APIs, function URLs) carry
 * `rawPath`, REST API events (1.0) do not.
 */
export const fromProxyEvent = (event: APIGatewayProxyEventV2 | APIGatewayProxyEvent): HttpRequest =>
  'rawPath' in objectField(event, 'event')
    ? toHttpRequest(event as APIGatewayProxyEventV2)
    : fromRestEvent(event as APIGatewayProxyEvent);

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
    const translated = translateEvent(fromProxyEvent, event, ctx.log);
    if ('rejected' in translated) return toLambdaResult(translated.rejected);
    const response = await handle(translated.request, ctx);
    return 'rawPath' in event ? toLambdaResult(response) : toRestResult(response);
  };
}
