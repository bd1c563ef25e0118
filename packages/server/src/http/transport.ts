import type { Authenticator } from '../auth/authenticator.ts';
import type { Dispatch } from '../dispatcher.ts';
import { errorFields } from '../log.ts';
import { clientText, isShortEcho } from '../protocol/client-text.ts';
import { InternalError, type McpError } from '../protocol/errors.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';
import type { JSONRPCNotification, JSONRPCRequest, RequestId } from '../protocol/types.ts';
import { classifyEra, type Revision } from '../protocol/versions.ts';
import type { ParamHeader } from '../tools/param-headers.ts';
import type { Session } from '../sessions/session-id.ts';
import { admit, type Admitted } from './admit.ts';
import type { HandshakeCallState } from './handshake-state.ts';
import { checkStatelessHeaders } from './mcp-headers.ts';
import { corsHeaders } from './origin.ts';
import { once } from '../lazy.ts';
import { Defaults } from '../limits.ts';
import type { LiveStream } from '../wire/live-stream.ts';
import { ACCEPTED, errorReply, json, sse } from '../wire/replies.ts';
import { PRE_DISPATCH_STATUS, responseStatus } from './status.ts';
import type { TransportOptions } from '../wire/transport-options.ts';
import type {
  HttpRequest,
  HttpResponse,
  InvocationContext,
  StreamedHttpResponse,
  StreamingInvocationContext,
} from '../wire/types.ts';
import { monotonicMs } from '../clock.ts';

/** Streamed answers (live.ts): only a request behind an adapter that streams loads them, on the first one. */
const loadLive = once(() => import('./live.ts'));

/** What the transport sends and what the request's log line says about it. */
interface Handled {
  response: HttpResponse | StreamedHttpResponse;
  rpcMethod?: string;
  audit?: Record<string, unknown>;
  /** A streamed response: settles with the audit fields once its last event is queued. */
  finished?: Promise<Record<string, unknown> | undefined>;
}

/** What the transport needs besides its options. */
export interface TransportParts {
  dispatch: Dispatch;
  /** The `x-mcp-header` declarations of a tool (2026-07-28 header checks). */
  paramHeadersOf: (tool: string) => readonly ParamHeader[];
  /** Every request must prove its caller; the RFC 9728 metadata is served on GET. Absent: open endpoint. */
  authenticator?: Authenticator;
  /**
   * The handshake era's call state: sessions (`Mcp-Session-Id`), clients' answers and cancellations, resumable
   * streams (SEP-1699), its code loaded on first use. Absent: no session is issued and the header is ignored,
   * answers are acknowledged, and no stream resumes.
   */
  handshake?: HandshakeCallState;
}

/** A transport's parts and options, passed to each step. */
interface Setup {
  parts: TransportParts;
  options: TransportOptions;
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
  const { handshake } = setup.parts;
  // A client's answer to a mid-call question; acknowledged where nothing asks.
  if (parsed.kind === 'response')
    return {
      response: handshake?.keeps
        ? await handshake.answer({ req, message: parsed.message, admitted, ctx })
        : ACCEPTED,
    };
  const { message } = parsed;
  const isRequest = parsed.kind === 'request';
  const rpcMethod = clientText(message.method);
  const id = isRequest ? parsed.message.id : null;
  const headerVersion = req.headers['mcp-protocol-version']?.trim();
  let revision: Revision;
  try {
    revision = classifyEra(
      message.method,
      message.params,
      headerVersion,
      isRequest ? 'request' : 'notification',
    );
  } catch (error) {
    return { response: errorReply(PRE_DISPATCH_STATUS, error as McpError, id), rpcMethod };
  }
  let session: Session | undefined;
  // A handshake-era message after initialize is read with its session (2026-07-28 ignores Mcp-Session-Id).
  if (
    revision.era === 'handshake' &&
    handshake &&
    req.headers['mcp-session-id'] &&
    message.method !== 'initialize'
  ) {
    const named = await handshake.session({ req, admitted, ctx, revision });
    if ('refusal' in named) return { response: named.refusal, rpcMethod };
    ({ session, revision } = named);
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
  // Notifications are acknowledged and never answered (spec: transports). A cancellation is recorded in the
  // call state, where the call it names sees it on whichever instance runs it (call-state/cancel-watch.ts).
  if (!isRequest) {
    if (session && handshake?.keeps && message.method === 'notifications/cancelled')
      await handshake.cancel({ params: message.params, session, admitted, ctx });
    return { response: ACCEPTED, rpcMethod };
  }
  return { ...(await respond(setup, parsed.message, revision, ctx, admitted, session)), rpcMethod };
}

/**
 * The live stream of a request: resumable (SEP-1699) in the handshake era with a session, where cut streams' events
 * can wait; 2026-07-28 has no `GET` to resume from. Its code comes with the session's.
 */
async function liveStream(
  { parts, options }: Setup,
  revision: Revision,
  request: { callId: RequestId; session: Session | undefined; admitted: Admitted; ctx: InvocationContext },
): Promise<LiveStream> {
  const { session } = request;
  // A log repeats the call's id: one too long to repeat (a hostile client's) gets a stream that cannot be resumed.
  const resumable =
    parts.handshake?.keeps && session && revision.era === 'handshake' && isShortEcho(request.callId)
      ? await parts.handshake.stream({ ...request, session })
      : undefined;
  return (
    resumable ?? (await loadLive()).plainLiveStream(options.streamHeartbeatMs ?? Defaults.streamHeartbeatMs)
  );
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
  session: Session | undefined,
): Promise<Handled> {
  const streaming = 'streaming' in ctx ? ctx.streaming : undefined;
  const live =
    streaming && admitted.accepts.sse
      ? await liveStream({ parts, options }, revision, { callId: request.id, session, admitted, ctx })
      : undefined;
  const dispatching = parts.dispatch(request, {
    revision,
    requestId: ctx.requestId,
    log: ctx.log,
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    ...(admitted.principal ? { principal: admitted.principal } : {}),
    ...(streaming ? { signal: live ? live.cancelling(streaming.disconnected) : streaming.disconnected } : {}),
    ...(live ? { live } : {}),
    ...(session ? { session } : {}),
    ...(admitted.traceHeaders ? { traceHeaders: admitted.traceHeaders } : {}),
  });
  if (live) {
    await Promise.race([dispatching.catch(() => undefined), live.opened]);
    if (live.open) return (await loadLive()).liveAnswer(live, dispatching, request, ctx);
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
  // The handshake: what the client declared, sealed into its session id (sessions.ts).
  if (request.method === 'initialize' && revision.era === 'handshake' && parts.handshake)
    Object.assign(
      response.headers,
      await parts.handshake.issue({ request, response: outcome.response, admitted, ctx }),
    );
  return { response, ...audit };
}

/**
 * The Streamable HTTP rules for one POST endpoint (the spec's "Transports: Streamable HTTP", 2025-11-25 and
 * 2026-07-28), over neutral requests. Adapters only translate; every HTTP decision about MCP is here,
 * HTTP statuses included. With an authenticator, every request to the endpoint must prove its caller before
 * anything else is read (the spec's "Authorization": "Access Token Usage").
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
      // A GET resumes a cut stream, where streams can be cut: behind a streaming adapter, with sessions.
      const resumes = 'streaming' in ctx && parts.handshake?.keeps === true;
      const admitted = await admit(parts.authenticator, options, req, ctx, resumes);
      handled =
        'status' in admitted
          ? { response: admitted }
          : req.method === 'GET'
            ? await parts.handshake!.resume({ req, admitted, ctx: ctx as StreamingInvocationContext })
            : await answer(setup, req, ctx, admitted);
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
    return (await loadLive()).loggedAtEnd(response as StreamedHttpResponse, finished, logLine);
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
