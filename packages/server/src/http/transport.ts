import type { Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../auth/principal.ts';
import type { Dispatch } from '../dispatcher.ts';
import { errorFields } from '../log.ts';
import { clientText } from '../protocol/client-text.ts';
import { InternalError, type McpError } from '../protocol/errors.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';
import type { JSONRPCNotification, JSONRPCRequest } from '../protocol/types.ts';
import { classifyEra, type Revision } from '../protocol/versions.ts';
import type { ParamHeader } from '../tools/param-headers.ts';
import { checkStatelessHeaders } from './mcp-headers.ts';
import { acceptable, isJsonContentType, type Acceptable } from './media.ts';
import { corsHeaders, isHostAllowed, isOriginAllowed } from './origin.ts';
import { Defaults } from '../limits.ts';
import { liveAnswer, loggedAtEnd, LiveStream } from './live.ts';
import { ACCEPTED, authRefusal, errorReply, json, refusal, sse } from './replies.ts';
import { PRE_DISPATCH_STATUS, responseStatus } from './status.ts';
import type {
  HttpRequest,
  HttpResponse,
  InvocationContext,
  StreamedHttpResponse,
  StreamingInvocationContext,
} from './types.ts';
import { monotonicMs } from '../clock.ts';

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
  /** While a streamed response is open, a keep-alive comment goes out this often (ms). Default 60,000. */
  streamHeartbeatMs?: number;
}

/** What the transport sends and what the request's log line says about it. */
interface Handled {
  response: HttpResponse | StreamedHttpResponse;
  rpcMethod?: string;
  audit?: Record<string, unknown>;
  /** A streamed response: settles with the audit fields once its last event is queued. */
  finished?: Promise<Record<string, unknown> | undefined>;
}

/** A request that passed the HTTP checks: who calls, and what they accept. */
interface Admitted {
  principal?: Principal;
  accepts: Acceptable;
  body: string;
}

/** What the transport needs besides its options. */
export interface TransportParts {
  dispatch: Dispatch;
  /** The `x-mcp-header` declarations of a tool (2026-07-28 header checks). */
  paramHeadersOf: (tool: string) => readonly ParamHeader[];
  /** Every request must prove its caller; the RFC 9728 metadata is served on GET. Absent: open endpoint. */
  authenticator?: Authenticator;
}

/** A transport's parts and options, passed to each step. */
interface Setup {
  parts: TransportParts;
  options: TransportOptions;
}

/** The HTTP checks, in the spec's order: a response when the request is refused, else what was admitted. */
async function admit(
  { parts: { authenticator }, options }: Setup,
  req: HttpRequest,
  ctx: InvocationContext,
): Promise<HttpResponse | Admitted> {
  const { headers } = req;
  const metadata = req.method === 'GET' ? authenticator?.metadataFor(req.path) : undefined;
  // Public, non-secret and the same for everyone: any origin may read it, and caches may keep it.
  if (metadata)
    return json(200, metadata, {
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=3600',
    });
  if (req.path !== options.path) return refusal(404, `Not found: the MCP endpoint is ${options.path}`);
  if (!isHostAllowed(headers.host, options.allowedHosts))
    return refusal(403, 'Forbidden: Host header not allowed');
  if (!isOriginAllowed(headers.origin, options.allowedOrigins))
    return refusal(403, 'Forbidden: Origin not allowed');
  let principal: Principal | undefined;
  if (authenticator) {
    const authentication = await authenticator.authenticate({
      path: req.path,
      headers,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
    if (!authentication.ok) {
      const { rejection } = authentication;
      if (rejection.cause) ctx.log.error('access tokens cannot be verified', { cause: rejection.cause });
      return authRefusal(rejection);
    }
    principal = authentication.principal;
  }
  // No server-initiated stream and no sessions on a stateless server: GET and DELETE are 405 (spec: transports).
  if (req.method !== 'POST')
    return refusal(405, `Method not allowed: ${clientText(req.method)}; use POST`, { allow: 'POST' });
  if (!isJsonContentType(headers['content-type']))
    return refusal(415, 'Unsupported Media Type: Content-Type must be application/json');
  const accepts = acceptable(headers.accept);
  if (!accepts.json && !accepts.sse)
    return refusal(406, 'Not Acceptable: Accept must include application/json and text/event-stream');
  const body = req.body ?? '';
  if (Buffer.byteLength(body, 'utf8') > options.maxBodyBytes)
    return refusal(413, `Payload Too Large: the body limit is ${options.maxBodyBytes} bytes`);
  return { ...(principal ? { principal } : {}), accepts, body };
}

/** Reads the one JSON-RPC message, decides its revision, checks its headers and answers it. */
async function answer(
  setup: Setup,
  req: HttpRequest,
  ctx: InvocationContext | StreamingInvocationContext,
  admitted: Admitted,
): Promise<Handled> {
  const parsed = parseMessage(admitted.body);
  if (parsed.kind === 'invalid')
    return { response: errorReply(PRE_DISPATCH_STATUS, parsed.error, parsed.id) };
  if (parsed.kind === 'response') return { response: ACCEPTED };
  const { message } = parsed;
  const isRequest = parsed.kind === 'request';
  const rpcMethod = clientText(message.method);
  const id = isRequest ? parsed.message.id : null;
  let revision: Revision;
  try {
    revision = classifyEra(
      message.method,
      message.params,
      req.headers['mcp-protocol-version']?.trim(),
      isRequest ? 'request' : 'notification',
    );
  } catch (error) {
    return { response: errorReply(PRE_DISPATCH_STATUS, error as McpError, id), rpcMethod };
  }
  if (revision.era === 'stateless') {
    const problem = checkStatelessHeaders(
      req.headers,
      message,
      revision.protocolVersion,
      isRequest,
      setup.parts.paramHeadersOf,
    );
    if (problem) return { response: errorReply(PRE_DISPATCH_STATUS, problem, id), rpcMethod };
  }
  // Notifications are acknowledged and never answered (spec: transports; notifications/cancelled needs no action
  // because every request is answered within its own invocation).
  if (!isRequest) return { response: ACCEPTED, rpcMethod };
  return { ...(await respond(setup, parsed.message, revision, ctx, admitted)), rpcMethod };
}

/**
 * Dispatches a request and puts the outcome on the wire: JSON, or an SSE stream when there is more to send. When the
 * adapter can stream and the client reads event streams, the stream opens with the request's first notification
 * (or its first keep-alive), each later one leaves as it is emitted and the response ends it; an answer that never
 * opened it (a list, an error, a quick tool) goes out exactly as it would without streaming.
 */
async function respond(
  { parts, options }: Setup,
  request: JSONRPCRequest,
  revision: Revision,
  ctx: InvocationContext | StreamingInvocationContext,
  admitted: Admitted,
): Promise<Handled> {
  const streaming = 'streaming' in ctx ? ctx.streaming : undefined;
  const live =
    streaming && admitted.accepts.sse
      ? new LiveStream(options.streamHeartbeatMs ?? Defaults.streamHeartbeatMs)
      : undefined;
  const dispatching = parts.dispatch(request, {
    revision,
    requestId: ctx.requestId,
    log: ctx.log,
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    ...(admitted.principal ? { principal: admitted.principal } : {}),
    ...(streaming ? { signal: streaming.disconnected } : {}),
    ...(live ? { live } : {}),
  });
  if (live) {
    await Promise.race([dispatching.catch(() => undefined), live.opened]);
    if (live.open) return liveAnswer(live, dispatching, request, ctx);
    live.end(); // answered before anything had to be sent: plainly, as without streaming
  }
  const outcome = await dispatching;
  const audit = outcome.audit ? { audit: outcome.audit } : {};
  if (outcome.requiredScopes && parts.authenticator) {
    // A tool needs scopes the token lacks: 403 with the scopes to ask for (RFC 6750 §3.1; MCP "Scope Challenge").
    const rejection = parts.authenticator.insufficientScope(outcome.requiredScopes);
    return { response: json(rejection.status, outcome.response, rejection.headers), ...audit };
  }
  const status = responseStatus(outcome.response, revision.era);
  const streamWanted = outcome.notifications.length > 0 || outcome.stream === true;
  const { accepts } = admitted;
  // An HTTP error status (404 for a stateless unknown method) always carries a plain JSON-RPC error, so that
  // clients probing for the era can read it (2026-07-28 Streamable HTTP, "Backward Compatibility").
  const messages: (JSONRPCNotification | typeof outcome.response)[] = [
    ...outcome.notifications,
    outcome.response,
  ];
  const response =
    accepts.sse && status === 200 && (streamWanted || !accepts.json)
      ? sse(messages)
      : json(status, outcome.response);
  return { response, ...audit };
}

/**
 * The Streamable HTTP rules for one POST endpoint (mcp-checklist.md, "HTTP transport", and the 2026-07-28
 * specification's Streamable HTTP transport), over neutral requests. Adapters only translate; every HTTP decision about MCP is here,
 * HTTP statuses included. With an authenticator, every request to the endpoint must prove its caller before
 * anything else is read (mcp-checklist.md, "Authorization").
 */
export function createTransport(parts: TransportParts, options: TransportOptions) {
  const setup: Setup = { parts, options };

  /**
   * Handles one HTTP request and writes one structured log line for it: the access fields, plus the audit fields
   * when it was a tool call (one line per request keeps logging cheap on the hot path). A streamed response is
   * logged when its last event has been taken.
   */
  async function transport(
    req: HttpRequest,
    ctx: InvocationContext | StreamingInvocationContext,
  ): Promise<HttpResponse | StreamedHttpResponse> {
    const started = monotonicMs();
    let handled: Handled;
    try {
      const admitted = await admit(setup, req, ctx);
      handled = 'status' in admitted ? { response: admitted } : await answer(setup, req, ctx, admitted);
    } catch (error) {
      // Nothing below should throw; if something does (say, a value that cannot be serialized), the client still
      // gets a JSON-RPC error rather than a gateway failure, and the details stay in the log.
      ctx.log.error('request failed unexpectedly', { error: errorFields(error, { stack: true }) });
      handled = { response: errorReply(500, new InternalError(ctx.requestId)) };
    }
    const { rpcMethod, audit, finished } = handled;
    // Headers the response already has win (the public metadata is readable by any origin).
    const cors = corsHeaders(req.headers.origin, setup.options.allowedOrigins);
    const response =
      'access-control-allow-origin' in cors
        ? { ...handled.response, headers: { ...cors, ...handled.response.headers } }
        : handled.response;
    const logLine = (audit: Record<string, unknown> | undefined) => {
      const line = {
        requestId: ctx.requestId,
        // Every client-chosen field is capped: one line per request must stay small whatever the request was.
        httpMethod: clientText(req.method),
        path: clientText(req.path),
        rpcMethod,
        status: response.status,
        durationMs: Math.round((monotonicMs() - started) * 100) / 100,
      };
      try {
        ctx.log.info('request', { ...line, ...audit });
      } catch {
        ctx.log.info('request', line); // audit fields a logger cannot serialize (e.g. arguments nested too deep)
      }
    };
    if (!finished || typeof response.body === 'string') {
      logLine(audit);
      return response;
    }
    return { ...response, body: loggedAtEnd(response.body, finished, logLine) };
  }

  return transport as Transport;
}

/**
 * Handles one HTTP request. Given a {@link StreamingInvocationContext} (an adapter that can stream), the answer may
 * be a {@link StreamedHttpResponse}; otherwise it is always a complete {@link HttpResponse}.
 */
export interface Transport {
  (req: HttpRequest, ctx: StreamingInvocationContext): Promise<HttpResponse | StreamedHttpResponse>;
  (req: HttpRequest, ctx: InvocationContext): Promise<HttpResponse>;
}
