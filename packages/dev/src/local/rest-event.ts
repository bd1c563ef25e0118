import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
} from 'aws-lambda';

const TEXTUAL = /^(application\/(json|[\w.+-]*\+json|x-www-form-urlencoded)|text\/)/i;

/**
 * Builds the event an API Gateway REST API proxy integration (payload 1.0) delivers, as on a custom domain without
 * a base path (so the local URL `/mcp` is the event's `path`): `headers` keep the last value of a repeated header,
 * `multiValueHeaders` all of them.
 */
export function toRestApiEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEvent {
  // The path as sent, never parsed as a URL: `//host/oauth/token` is a path (a URL parser would make `host` an
  // authority and route `/oauth/token`), and `/mcp/../_local/x` keeps its dot segments, as the deployed API
  // routes them, so no request reaches a route its path as sent does not name.
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  const pathname = mark === -1 ? target : target.slice(0, mark);
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(mark === -1 ? '' : target.slice(mark + 1)))
    (query[name] ??= []).push(value);
  const hasQuery = Object.keys(query).length > 0;
  const contentType = req.headers['content-type'] ?? '';
  const textual = TEXTUAL.test(contentType);
  const now = Date.now();
  const method = req.method ?? 'GET';
  return {
    resource: pathname,
    path: pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery
      ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v.at(-1)!]))
      : null,
    multiValueQueryStringParameters: hasQuery ? query : null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: undefined,
      domainName: req.headers.host ?? 'localhost',
      httpMethod: method,
      identity: {
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
      path: pathname,
      protocol: `HTTP/${req.httpVersion}`,
      requestId: randomUUID(),
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: pathname,
      stage: 'local',
    },
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : null,
    isBase64Encoded: body.length > 0 && !textual,
  };
}

/**
 * A REST API proxy integration's result (payload 1.0) as the response API Gateway sends: `multiValueHeaders` add to
 * `headers` (repeated values joined with `,`), and their `Set-Cookie` values each become a header line of their own.
 */
export function fromRestResult(result: APIGatewayProxyResult): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {}))
    headers[name.toLowerCase()] = String(value);
  const cookies: string[] = [];
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    const texts = values.map(String);
    if (name.toLowerCase() === 'set-cookie') cookies.push(...texts);
    else headers[name.toLowerCase()] = texts.join(',');
  }
  return {
    statusCode: result.statusCode,
    headers,
    ...(cookies.length ? { cookies } : {}),
    body: result.body,
    ...(result.isBase64Encoded ? { isBase64Encoded: true } : {}),
  };
}
