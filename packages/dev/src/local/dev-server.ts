import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyResult,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { StreamingEvent, StreamingHandler } from '@mcp-lambda/server/lambda';
import { Defaults } from '@mcp-lambda/server/limits';
import { gatewayPreflight, gatewayResponseHeaders, type GatewayCors } from './gateway-cors.ts';
import { closeIdleConnectionsSafely } from './keep-alive.ts';
import {
  BodyBudget,
  LOCAL_SERVER_LIMITS,
  readBody,
  RETRY_AFTER_SECONDS,
  TIMEOUT_CHECK_INTERVAL_MS,
  type HeldBodies,
  type LocalServerLimits,
} from './request-body.ts';
import { fromRestResult, toRestApiEvent } from './rest-event.ts';
import { LocalResponseStream } from './stream-response.ts';

/** A Lambda handler for API Gateway HTTP API events, as `functions/mcp/handler.ts` exports. */
export type LambdaHttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** A Lambda handler for API Gateway REST API proxy events (payload 1.0), answering whole. */
export type LambdaRestHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;

/**
 * Methods of a REST API with buffered Lambda proxy integrations beside the streamed ones: the authorization
 * bridge's routes, which the stack adds to the streaming REST API behind a custom domain.
 */
export interface BufferedRoutes {
  /** Whether a request path (as the event's `path`) is one of these routes. */
  handles(path: string): boolean;
  handler: LambdaRestHandler;
}

/** The handler the local server calls, and so the API it stands in for. */
export type LocalHandler =
  /** An API Gateway HTTP API (payload 2.0 events, one complete response each), as `functions/mcp/handler.ts` `handler`. */
  | { handler: LambdaHttpHandler }
  /**
   * A REST API with response streaming (payload 1.0 events, the response written as the handler streams it), as
   * `functions/mcp/handler.ts` `streamingHandler`; `buffered` routes, if any, answer whole.
   */
  | { streamingHandler: StreamingHandler<StreamingEvent>; buffered?: BufferedRoutes };

export type LocalServerOptions = LocalHandler & {
  port: number;
  /** Interface to bind; loopback by default so nothing outside this machine can connect. */
  host?: string;
  /** Simulated Lambda timeout in ms (drives the tool time budget). Default: the MCP function's, 28 s (streaming: 900 s). */
  timeoutMs?: number;
  /**
   * API Gateway's CORS for the allowed origins, as the deployed API answers preflights and sets CORS headers.
   * Default: none (a deployment without `allowedOrigins`).
   */
  cors?: GatewayCors;
  /** What the server holds at most; each limit not given is LOCAL_SERVER_LIMITS's. */
  limits?: Partial<LocalServerLimits>;
};

/** A running local server. */
export interface LocalServer {
  url: string;
  server: Server;
  /** The request bodies it holds now (to watch its memory under load). */
  heldBodies(): HeldBodies;
  close(): Promise<void>;
}

const TEXTUAL = /^(application\/(json|[\w.+-]*\+json|x-www-form-urlencoded)|text\/)/i;

/** The path of a request target as sent, split at the first `?`: no URL parsing (`//host/mcp` is a path). */
function targetPath(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

/** Header names in lower case, a repeated header's values joined with `,` as API Gateway joins them. */
function joinedHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** Builds the very event API Gateway (HTTP API, payload 2.0, $default stage) would deliver. */
function toApiGatewayEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const target = req.url ?? '/';
  const query = target.indexOf('?');
  const path = targetPath(target);
  const headers = joinedHeaders(req);
  // Payload 2.0 delivers cookies as a list and drops the Cookie header.
  const cookies = (headers.cookie ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  delete headers.cookie;
  const now = new Date();
  const textual = TEXTUAL.test(headers['content-type'] ?? '');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query === -1 ? '' : target.slice(query + 1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: textual ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !textual,
  };
}

function lambdaContext(timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The time limit of a buffered REST integration's handler. */
const BUFFERED_MS = Defaults.mcpFunctionTimeoutSeconds * 1000;

/** How long a refused connection stays open, unread, so the client can read the 413 before it is dropped. */
const LINGER_MS = 1_000;

/** An answer of the gateway itself (not of the function), as API Gateway words it. */
const gatewayAnswer = (statusCode: number, message: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message }),
});

/** Writes a Lambda result as API Gateway does: a complete body with its Content-Length (no chunked encoding). */
function write(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const text = result.body ?? '';
  // A text body is written as the string: a Buffer copy of a multi-megabyte answer would only add to the peak.
  const body = result.isBase64Encoded ? Buffer.from(text, 'base64') : text;
  res.writeHead(result.statusCode ?? 200, {
    ...(result.headers as Record<string, string>),
    ...(result.cookies?.length ? { 'set-cookie': result.cookies } : {}),
    'content-length': String(typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length),
  });
  res.end(body);
}

/** The gateway's answer to a body it will not read: 413 above the size limit, 503 above the shared budget. */
function refuse(req: IncomingMessage, res: ServerResponse, status: 413 | 503): void {
  // Answer at once and never read the rest: close our side, and drop the connection shortly after, once the client
  // has had time to read the answer (dropping it at once could reset the answer away).
  res.once('finish', () => {
    req.socket.end();
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  });
  if (status === 413) return write(res, gatewayAnswer(413, 'Request Entity Too Large'));
  const busy = gatewayAnswer(503, 'Service Unavailable');
  write(res, { ...busy, headers: { ...busy.headers, 'retry-after': String(RETRY_AFTER_SECONDS) } });
}

/** Answers one request: its body read within the budget, then the handler's answer as API Gateway writes it. */
async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  options: LocalServerOptions & { timeoutMs: number },
  budget: BodyBudget,
): Promise<void> {
  const account = budget.open();
  // The body counts until the response ends, however it ends (answered, refused, the client gone, timed out).
  res.once('close', account.release);
  try {
    // Only origin-form targets (`/mcp`): an absolute URL (`http://elsewhere/mcp`) is a proxy request, not ours.
    if (!req.url?.startsWith('/')) return write(res, gatewayAnswer(400, 'Bad Request'));
    const read = await readBody(req, account);
    if (!('body' in read)) {
      account.release();
      // A client that left (or that Node's request timeout answered with 408) is owed nothing more.
      return 'refused' in read ? refuse(req, res, read.refused) : undefined;
    }
    const { body } = read;
    const preflight = gatewayPreflight(
      { method: req.method ?? 'GET', path: targetPath(req.url), headers: joinedHeaders(req) },
      options.cors,
    );
    // A 204 carries no Content-Length (RFC 9110 §8.6).
    if (preflight) return void res.writeHead(preflight.status, preflight.headers).end();
    const context = lambdaContext(options.timeoutMs);
    if ('streamingHandler' in options) {
      const event = toRestApiEvent(req, body);
      // A buffered integration answers within API Gateway's 29 s, as the buffered MCP function does.
      if (options.buffered?.handles(event.path))
        return write(res, fromRestResult(await options.buffered.handler(event, lambdaContext(BUFFERED_MS))));
      const stream = new LocalResponseStream(res);
      await options.streamingHandler(event, stream, context);
      if (!stream.headersSent) throw new Error('the streaming handler sent no response');
      return;
    }
    const result = await options.handler(toApiGatewayEvent(req, body), context);
    const headers = gatewayResponseHeaders(
      req.headers.origin,
      (result.headers ?? {}) as Record<string, string>,
      options.cors,
    );
    write(res, { ...result, headers });
  } catch {
    // What API Gateway answers when the integration fails.
    if (!res.headersSent) write(res, gatewayAnswer(500, 'Internal Server Error'));
    else res.destroy();
  }
}

/**
 * Serves a Lambda handler over node:http, translating each request into an API Gateway event and back, within the
 * limits of LOCAL_SERVER_LIMITS (or `options.limits`).
 */
export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const timeoutMs =
    options.timeoutMs ??
    ('streamingHandler' in options
      ? Defaults.streamingFunctionTimeoutSeconds
      : Defaults.mcpFunctionTimeoutSeconds) * 1000;
  const limits = { ...LOCAL_SERVER_LIMITS, ...options.limits };
  const budget = new BodyBudget(limits);
  const served = { ...options, timeoutMs };
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      // Node refuses a headers timeout above the request timeout.
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    (req, res) => void serve(req, res, served, budget),
  );
  server.maxConnections = limits.maxConnections;
  closeIdleConnectionsSafely(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    heldBodies: () => budget.now(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
