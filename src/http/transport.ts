import type { AuthRejection, Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../auth/principal.ts';
import type { Dispatch, DispatchOutcome } from '../dispatcher.ts';
import { ErrorCode, McpError } from '../protocol/errors.ts';
import { errorResponse, parseMessage } from '../protocol/jsonrpc.ts';
import type { JSONRPCNotification, JSONRPCResponse, RequestId } from '../protocol/types.ts';
import { classifyEra } from '../protocol/versions.ts';
import type { ParamHeader } from '../tools/param-headers.ts';
import { checkModernHeaders } from './mcp-headers.ts';
import { acceptable, isJsonContentType } from './media.ts';
import { isHostAllowed, isOriginAllowed } from './origin.ts';
import type { HttpRequest, HttpResponse, InvocationContext } from './types.ts';

/** Transport settings; see the configuration table in the README. */
export interface TransportOptions {
  /** The one MCP endpoint path. */
  path: string;
  /** Origins allowed to call (exact, `scheme://host:*`, or `*`). An absent Origin is always allowed. */
  allowedOrigins: readonly string[];
  /** Host header values accepted (DNS-rebinding guard for local servers); undefined = any. */
  allowedHosts?: readonly string[];
  /** Largest accepted body in bytes; larger → 413. */
  maxBodyBytes: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function json(status: number, body: unknown, extra: Record<string, string> = {}): HttpResponse {
  return { status, headers: { ...JSON_HEADERS, ...extra }, body: JSON.stringify(body) };
}

function reject(
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  data?: unknown,
): HttpResponse {
  return json(status, errorResponse(id, new McpError(code, message, data)));
}

/**
 * One SSE event per message; the stream ends with the response, so it is complete when the body is.
 * `X-Accel-Buffering: no` asks reverse proxies not to hold events back (spec: Streamable HTTP, "Receiving Messages").
 */
function sse(status: number, messages: readonly (JSONRPCNotification | JSONRPCResponse)[]): HttpResponse {
  return {
    status,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
    body: messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(''),
  };
}

/** A 401/403/503 from the authenticator: its headers (the `WWW-Authenticate` challenge) and a JSON-RPC error body. */
function refuse(rejection: AuthRejection): HttpResponse {
  return json(
    rejection.status,
    errorResponse(null, new McpError(ErrorCode.ServerError, rejection.message)),
    rejection.headers,
  );
}

/**
 * The Streamable HTTP rules for one POST endpoint (mcp-checklist.md, "HTTP transport", and 2026-07-28.md,
 * "Modern HTTP rules"), over neutral requests. Adapters only translate; every HTTP decision about MCP is here.
 * With an authenticator, every request to the endpoint must prove its caller before anything else is read
 * (mcp-checklist.md, "Authorization"), and the RFC 9728 metadata is served on GET.
 */
export function createTransport(
  dispatch: Dispatch,
  paramHeadersOf: (tool: string) => readonly ParamHeader[],
  options: TransportOptions,
  authenticator?: Authenticator,
) {
  async function handle(
    req: HttpRequest,
    ctx: InvocationContext,
  ): Promise<{ response: HttpResponse; rpcMethod?: string; audit?: Record<string, unknown> }> {
    const headers = req.headers;
    const metadata = req.method === 'GET' ? authenticator?.metadataFor(req.path) : undefined;
    if (metadata) {
      // Public, non-secret and the same for everyone: any origin may read it, and caches may keep it.
      return {
        response: json(200, metadata, {
          'access-control-allow-origin': '*',
          'cache-control': 'public, max-age=3600',
        }),
      };
    }
    if (req.path !== options.path) {
      return {
        response: reject(404, ErrorCode.ServerError, `Not found: the MCP endpoint is ${options.path}`),
      };
    }
    if (!isHostAllowed(headers.host, options.allowedHosts)) {
      return { response: reject(403, ErrorCode.ServerError, 'Forbidden: Host header not allowed') };
    }
    if (!isOriginAllowed(headers.origin, options.allowedOrigins)) {
      return { response: reject(403, ErrorCode.ServerError, 'Forbidden: Origin not allowed') };
    }
    let principal: Principal | undefined;
    if (authenticator) {
      const authentication = await authenticator.authenticate({ path: req.path, headers });
      if (!authentication.ok) {
        const { rejection } = authentication;
        if (rejection.cause) ctx.log.error('access tokens cannot be verified', { cause: rejection.cause });
        return { response: refuse(rejection) };
      }
      principal = authentication.principal;
    }
    if (req.method !== 'POST') {
      // No server-initiated stream and no sessions on a stateless server: GET and DELETE are 405 (spec: transports).
      return {
        response: {
          ...reject(405, ErrorCode.ServerError, `Method not allowed: ${req.method}; use POST`),
          headers: { ...JSON_HEADERS, allow: 'POST' },
        },
      };
    }
    if (!isJsonContentType(headers['content-type'])) {
      return {
        response: reject(
          415,
          ErrorCode.ServerError,
          'Unsupported Media Type: Content-Type must be application/json',
        ),
      };
    }
    const accepts = acceptable(headers.accept);
    if (!accepts.json && !accepts.sse) {
      return {
        response: reject(
          406,
          ErrorCode.ServerError,
          'Not Acceptable: Accept must include application/json and text/event-stream',
        ),
      };
    }
    const body = req.body ?? '';
    if (Buffer.byteLength(body, 'utf8') > options.maxBodyBytes) {
      return {
        response: reject(
          413,
          ErrorCode.ServerError,
          `Payload Too Large: the body limit is ${options.maxBodyBytes} bytes`,
        ),
      };
    }
    const parsed = parseMessage(body);
    if (parsed.kind === 'invalid')
      return { response: json(parsed.error.httpStatus, errorResponse(parsed.id, parsed.error)) };
    if (parsed.kind === 'response') return { response: { status: 202, headers: {}, body: '' } };

    const message = parsed.message;
    const isRequest = parsed.kind === 'request';
    const id = isRequest ? parsed.message.id : null;
    let era;
    try {
      era = classifyEra(
        message.method,
        message.params,
        headers['mcp-protocol-version']?.trim(),
        isRequest ? 'request' : 'notification',
      );
    } catch (error) {
      const e = error as McpError;
      return { response: json(e.httpStatus, errorResponse(id, e)), rpcMethod: message.method };
    }
    if (era.era === 'modern') {
      const problem = checkModernHeaders(headers, message, era.protocolVersion, isRequest, paramHeadersOf);
      if (problem)
        return { response: json(problem.httpStatus, errorResponse(id, problem)), rpcMethod: message.method };
    }
    // Notifications are acknowledged and never answered (spec: transports; notifications/cancelled needs no action
    // because every request is answered within its own invocation).
    if (!isRequest) return { response: { status: 202, headers: {}, body: '' }, rpcMethod: message.method };

    const outcome: DispatchOutcome = await dispatch(parsed.message, {
      era,
      requestId: ctx.requestId,
      log: ctx.log,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
      ...(principal ? { principal } : {}),
    });
    if (outcome.requiredScopes && authenticator) {
      // A tool needs scopes the token lacks: 403 with the scopes to ask for (RFC 6750 §3.1; MCP "Scope Challenge").
      const rejection = authenticator.insufficientScope(outcome.requiredScopes);
      return {
        response: json(rejection.status, outcome.response, rejection.headers),
        rpcMethod: message.method,
        ...(outcome.audit ? { audit: outcome.audit } : {}),
      };
    }
    const streamWanted = outcome.notifications.length > 0 || outcome.stream === true;
    // An HTTP error status (404 for a modern unknown method) always carries a plain JSON-RPC error, so that
    // clients probing for the era can read it (2026-07-28 Streamable HTTP, "Backward Compatibility").
    const response =
      accepts.sse && outcome.httpStatus === 200 && (streamWanted || !accepts.json)
        ? sse(outcome.httpStatus, [...outcome.notifications, outcome.response])
        : json(outcome.httpStatus, outcome.response);
    return { response, rpcMethod: message.method, ...(outcome.audit ? { audit: outcome.audit } : {}) };
  }

  /**
   * Handles one HTTP request and writes one structured log line for it: the access fields, plus the audit fields
   * when it was a tool call (one line per request keeps logging cheap on the hot path).
   */
  return async function transport(req: HttpRequest, ctx: InvocationContext): Promise<HttpResponse> {
    const started = performance.now();
    let outcome: Awaited<ReturnType<typeof handle>>;
    try {
      outcome = await handle(req, ctx);
    } catch (error) {
      // Nothing below should throw; if something does (say, a value that cannot be serialized), the client still
      // gets a JSON-RPC error rather than a gateway failure, and the details stay in the log.
      ctx.log.error('request failed unexpectedly', { error: describe(error) });
      const internal = new McpError(ErrorCode.InternalError, `Internal error (request id ${ctx.requestId})`);
      outcome = { response: json(500, errorResponse(null, internal)) };
    }
    const { response, rpcMethod, audit } = outcome;
    const line = {
      requestId: ctx.requestId,
      httpMethod: req.method,
      path: req.path,
      rpcMethod,
      status: response.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    };
    try {
      ctx.log.info('request', { ...line, ...audit });
    } catch {
      ctx.log.info('request', line); // audit fields a logger cannot serialize (e.g. arguments nested too deep)
    }
    return response;
  };
}

/** How an unexpected error is logged (the log only: clients see a generic message with the request id). */
function describe(error: unknown): { name: string; message: string; stack?: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
    : { name: 'Error', message: String(error) };
}

export type Transport = ReturnType<typeof createTransport>;
