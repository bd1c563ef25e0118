/**
 * The minimal API Gateway adapter the SDK baselines sit behind: an HTTP API (payload 2.0) event becomes a web
 * `Request`, the SDK's `Response` becomes the Lambda result. Both SDK lines serve web-standard requests
 * (SDK 2.x `createMcpHandler(...).fetch`, SDK 1.x `WebStandardStreamableHTTPServerTransport`, which its node
 * `StreamableHTTPServerTransport` wraps), so this is the thinnest fair path into either.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** Translates an API Gateway HTTP API event into a web `Request`. */
export function toWebRequest(event: APIGatewayProxyEventV2): Request {
  const method = event.requestContext.http.method;
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  const hasBody = event.body !== undefined && method !== 'GET' && method !== 'HEAD';
  return new Request(`https://${event.requestContext.domainName}${event.rawPath}${query}`, {
    method,
    headers,
    ...(hasBody ? { body: event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body } : {}),
  });
}

/** Translates a web `Response` into the API Gateway result shape (the whole body, as API Gateway buffers it). */
export async function toLambdaResult(response: Response): Promise<APIGatewayProxyStructuredResultV2> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, body: await response.text(), isBase64Encoded: false };
}
