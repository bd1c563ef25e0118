import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { Defaults, Platform, type StreamingEvent, type StreamingHandler } from '../index.ts';
import { toRestApiEvent } from './rest-event.ts';
import { LocalResponseStream } from './stream-response.ts';

/** A Lambda handler for API Gateway HTTP API events, as `functions/mcp/handler.ts` exports. */
export type LambdaHttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** The handler the local server calls, and so the API it stands in for. */
export type LocalHandler =
  /** An API Gateway HTTP API (payload 2.0 events, one complete response each), as `functions/mcp/handler.ts` `handler`. */
  | { handler: LambdaHttpHandler }
  /**
   * A REST API with response streaming (payload 1.0 events, the response written as the handler streams it), as
   * `functions/mcp/handler.ts` `streamingHandler`.
   */
  | { streamingHandler: StreamingHandler<StreamingEvent> };

export type LocalServerOptions = LocalHandler & {
  port: number;
  /** Interface to bind; loopback by default so nothing outside this machine can connect. */
  host?: string;
  /** Simulated Lambda timeout in ms (drives the tool time budget). Default: the MCP function's, 28 s (streaming: 900 s). */
  timeoutMs?: number;
};

const TEXTUAL = /^(application\/(json|[\w.+-]*\+json|x-www-form-urlencoded)|text\/)/i;

/** Builds the very event API Gateway (HTTP API, payload 2.0, $default stage) would deliver. */
function toApiGatewayEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
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
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
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

/** Reads the whole body, or `undefined` once it passes API Gateway's limit (the rest is drained unread). */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    // API Gateway refuses bodies above 10 MB before Lambda runs; the local server does the same.
    const limit = Platform.gatewayBodyBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

/** Writes a Lambda result as API Gateway does: a complete body with its Content-Length (no chunked encoding). */
function write(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const text = result.body ?? '';
  const body = result.isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  res.writeHead(result.statusCode ?? 200, {
    ...(result.headers as Record<string, string>),
    ...(result.cookies?.length ? { 'set-cookie': result.cookies } : {}),
    'content-length': String(body.length),
  });
  res.end(body);
}

/** Serves a Lambda handler over node:http, translating each request into an API Gateway event and back. */
export async function startLocalServer(
  options: LocalServerOptions,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const timeoutMs =
    options.timeoutMs ??
    ('streamingHandler' in options
      ? Defaults.streamingFunctionTimeoutSeconds
      : Defaults.mcpFunctionTimeoutSeconds) * 1000;
  const server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      if (body === undefined) {
        write(res, {
          statusCode: 413,
          headers: { 'content-type': 'application/json' },
          body: '{"message":"Request Entity Too Large"}',
        });
        return;
      }
      if ('streamingHandler' in options) {
        const stream = new LocalResponseStream(res);
        await options.streamingHandler(toRestApiEvent(req, body), stream, lambdaContext(timeoutMs));
        if (!stream.headersSent) throw new Error('the streaming handler sent no response');
        return;
      }
      write(res, await options.handler(toApiGatewayEvent(req, body), lambdaContext(timeoutMs)));
    } catch {
      // What API Gateway answers when the integration fails.
      if (!res.headersSent)
        write(res, {
          statusCode: 500,
          headers: { 'content-type': 'application/json' },
          body: '{"message":"Internal Server Error"}',
        });
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
