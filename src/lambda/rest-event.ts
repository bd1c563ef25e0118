import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { HttpRequest } from '../http/types.ts';

/**
 * Translates an API Gateway REST API proxy event (payload 1.0) into a neutral request. On the API's own URL the
 * event's `path` is the resource path without the stage (`/mcp` for `https://…/prod/mcp`); behind a custom domain it
 * is the path after the base path mapping.
 */
export function fromRestEvent(event: APIGatewayProxyEvent): HttpRequest {
  const headers: Record<string, string> = {};
  // Repeated headers arrive in multiValueHeaders; join them as HTTP does, after the single-value ones.
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && value !== null) headers[name.toLowerCase()] = value;
  }
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (values && values.length > 1) headers[name.toLowerCase()] = values.join(',');
  }
  const body =
    event.body === undefined || event.body === null
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
  // Payload 1.0 carries the query decoded; re-encode it as the raw query string the neutral request holds.
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {}))
    for (const value of values ?? []) query.append(name, value);
  return {
    method: event.httpMethod ?? 'GET',
    path: event.path || '/',
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(query.size ? { query: query.toString() } : {}),
  };
}
