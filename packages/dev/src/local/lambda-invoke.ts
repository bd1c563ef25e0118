import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeIdleConnectionsSafely } from './keep-alive.ts';
import { refuseWebPage } from './loopback-only.ts';

/** What Lambda tells a handler about its invocation that the local stand-in can tell too. */
interface InvocationContext {
  /** Milliseconds left before the function's time limit. */
  getRemainingTimeInMillis(): number;
}

/** A function served locally: the handler of a directly invoked Lambda function (an event in, an answer out). */
export type InvokedHandler = (event: unknown, context: InvocationContext) => Promise<unknown>;

/** What a local Lambda Invoke API serves, and where. */
export interface LocalLambdaOptions {
  /** Handlers by function name. */
  functions: Readonly<Record<string, InvokedHandler>>;
  /** Port on 127.0.0.1; 0 lets the OS choose. Default 0. */
  port?: number;
  /** Called for every invocation, before it is served. */
  onInvoke?: (name: string, event: unknown) => void;
  /**
   * Each invocation's time limit, the functions' configured timeout, in ms: handlers see what is left of it in their
   * context, and one still running at the limit is answered as Lambda answers (a `Sandbox.Timedout` function
   * error). Default: none.
   */
  timeoutMs?: number;
}

/** The handler's answer, or Lambda's timeout error once `timeoutMs` has passed. */
async function invokeWithin(handler: InvokedHandler, event: unknown, timeoutMs: number | undefined) {
  const deadline = Date.now() + (timeoutMs ?? 2 ** 31 - 1);
  const context = { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
  const answer = handler(event, context);
  if (timeoutMs === undefined) return answer;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
      error.name = 'Sandbox.Timedout';
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([answer, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export interface LocalLambda {
  /** `http://127.0.0.1:PORT`: the value of `AWS_ENDPOINT_URL_LAMBDA` for callers. */
  endpoint: string;
  close(): Promise<void>;
}

const INVOKE = /^\/2015-03-31\/functions\/([^/]+)\/invocations(?:\?.*)?$/;

/** Lambda's limit on a RequestResponse invocation's payload: a larger request is refused unread. */
const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

type Send = (status: number, body: unknown, headers?: Record<string, string>) => void;

/** The function a request names, decoded; undefined when the path names none or its encoding is broken. */
function functionName(url: string | undefined): string | undefined {
  const raw = INVOKE.exec(url ?? '')?.[1];
  try {
    return raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Serves one Invoke request: the named handler with the request's event, answered as Lambda answers. */
async function invoke(req: IncomingMessage, options: LocalLambdaOptions, send: Send): Promise<void> {
  const name = functionName(req.url);
  const handler =
    req.method === 'POST' && name !== undefined && Object.hasOwn(options.functions, name)
      ? options.functions[name]
      : undefined;
  if (!handler) {
    const shown = JSON.stringify((name ?? '').slice(0, 64));
    return send(404, { Type: 'User', message: `Function not found: ${shown}` });
  }
  const tooLarge = () =>
    send(
      413,
      { Type: 'User', message: `Request must be smaller than ${MAX_PAYLOAD_BYTES} bytes` },
      { connection: 'close', 'x-amzn-errortype': 'RequestTooLargeException' },
    );
  if (Number(req.headers['content-length'] ?? 0) > MAX_PAYLOAD_BYTES) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return tooLarge();
    chunks.push(chunk as Buffer);
  }
  try {
    const raw = Buffer.concat(chunks).toString('utf8');
    const event: unknown = raw === '' ? {} : JSON.parse(raw);
    options.onInvoke?.(name!, event);
    send(200, await invokeWithin(handler, event, options.timeoutMs));
  } catch (error) {
    const e = error as Error;
    send(
      200,
      { errorType: e?.name ?? 'Error', errorMessage: e?.message ?? String(error) },
      { 'x-amz-function-error': 'Unhandled' },
    );
  }
}

/**
 * A loopback stand-in for the Lambda Invoke API (RequestResponse invocations only), so that locally the MCP
 * function reaches its companion exactly as it does when deployed: through `@aws-sdk/client-lambda`, with the
 * endpoint taken from `AWS_ENDPOINT_URL_LAMBDA`. A handler that throws answers as Lambda does, with the
 * `X-Amz-Function-Error` header, and so does one that outlives `timeoutMs`. Signatures are not checked: it listens on
 * loopback only, and refuses requests a web page could send (`loopback-only.ts`).
 */
export async function startLocalLambda(options: LocalLambdaOptions): Promise<LocalLambda> {
  const server: Server = createServer((req, res) => {
    if (refuseWebPage(req, res)) return;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent) return void res.destroy();
      const text = JSON.stringify(body) ?? 'null';
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        ...headers,
      });
      res.end(text);
    };
    // A request that fails before the handler runs (its body cut off) gets an answer; the stand-in keeps serving.
    invoke(req, options, send).catch(() => send(500, { Type: 'Service', message: 'the request failed' }));
  });
  closeIdleConnectionsSafely(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
