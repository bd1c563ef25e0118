import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { HttpRequest, HttpResponse } from '../wire/types.ts';
import { eventBody, objectField, textField, textListMapField, textMapField } from './event-fields.ts';

/**
 * Translates an API Gateway REST API proxy event (payload 1.0) into a neutral request. On the API's own URL the
 * event's `path` is the resource path without the stage (`/mcp` for `https://…/prod/mcp`); behind a custom domain it
 * is the path after the base path mapping. A field without the type API Gateway gives it throws a
 * `MalformedEventError`.
 */
export function fromRestEvent(event: APIGatewayProxyEvent): HttpRequest {
  const fields = objectField(event, 'event');
  const headers: Record<string, string> = {};
  // Repeated headers arrive in multiValueHeaders; join them as HTTP does, after the single-value ones.
  for (const [name, value] of Object.entries(textMapField(fields.headers, 'headers')))
    headers[name.toLowerCase()] = value;
  // Repeated Cookie headers are not joined with ',' (a cookie value may hold one): each is a list of its own.
  let cookieHeaders = headers.cookie !== undefined ? [headers.cookie] : [];
  for (const [name, values] of Object.entries(
    textListMapField(fields.multiValueHeaders, 'multiValueHeaders'),
  )) {
    if (values.length < 2) continue;
    if (name.toLowerCase() === 'cookie') cookieHeaders = values;
    else headers[name.toLowerCase()] = values.join(',');
  }
  // Payload 2.0 moves the Cookie header into a list; do the same, so every reader finds cookies in one place.
  const cookies = cookieHeaders
    .flatMap((header) => header.split(';'))
    .map((c) => c.trim())
    .filter(Boolean);
  delete headers.cookie;
  const body = eventBody(fields);
  // Payload 1.0 carries the query decoded; re-encode it as the raw query string the neutral request holds.
  const query = new URLSearchParams();
  const parameters = textListMapField(
    fields.multiValueQueryStringParameters,
    'multiValueQueryStringParameters',
  );
  for (const [name, values] of Object.entries(parameters))
    for (const value of values) query.append(name, value);
  return {
    method: textField(fields.httpMethod, 'httpMethod') ?? 'GET',
    path: textField(fields.path, 'path') || '/',
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(query.size ? { query: query.toString() } : {}),
    ...(cookies.length ? { cookies } : {}),
  };
}

/** Translates a neutral response into the REST API (payload 1.0) result: each cookie its own Set-Cookie header. */
export function toRestResult(response: HttpResponse): APIGatewayProxyResult {
  return {
    statusCode: response.status,
    headers: response.headers,
    ...(response.cookies?.length ? { multiValueHeaders: { 'set-cookie': response.cookies } } : {}),
    body: response.body,
    isBase64Encoded: false,
  };
}
