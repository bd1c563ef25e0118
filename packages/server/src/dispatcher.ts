import type { Principal } from './contracts/principal.ts';
import type { CodecOptions } from './codec/codec.ts';
import { createCodecs } from './codec/select.ts';
import { errorFields, type Logger } from './log.ts';
import { completionMethods } from './methods/completion.ts';
import { lifecycleMethods, type LifecycleOptions } from './methods/lifecycle.ts';
import type { MethodContext, MethodTable } from './methods/method.ts';
import { promptMethods } from './methods/prompts.ts';
import { resourceMethods } from './methods/resources.ts';
import { lazyTaskMethods } from './methods/lazy-tasks.ts';
import { toolMethods, type ToolMethodsOptions } from './methods/tools.ts';
import { clientText } from './protocol/client-text.ts';
import { InsufficientScopeError, InternalError, McpError, MethodNotFoundError } from './protocol/errors.ts';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from './protocol/types.ts';
import type { Revision } from './protocol/versions.ts';
import type { PromptDefinition } from './prompts/define.ts';
import type { ResourceProvider } from './resources/provider.ts';
import type { LiveChannel } from './live-channel.ts';
import type { Session } from './sessions/session-id.ts';
import { monotonicMs } from './clock.ts';

/** Everything the dispatcher needs to know about one request, besides the message itself. */
export interface DispatchContext {
  revision: Revision;
  /** Invocation id (Lambda request id or the local server's). */
  requestId: string;
  /** Epoch milliseconds by which the response must be on its way (Lambda deadline), if known. */
  deadline?: number;
  /** The authenticated caller; absent when authorization is off. */
  principal?: Principal;
  log: Logger;
  /** Aborts when the client goes away (its response stream closed): the request is cancelled. */
  signal?: AbortSignal;
  /** A response stream the client is reading while the request runs: notifications then go out as emitted. */
  live?: LiveChannel;
  /** The handshake-era session the request names (what the client declared at `initialize`). */
  session?: Session;
  /** The HTTP request's W3C trace context headers: a request span's parent when `params._meta` carries none. */
  traceHeaders?: Readonly<Record<string, string>>;
}

/**
 * A response plus the notifications emitted while producing it (sent first when the response is an SSE stream;
 * none here when they went out live).
 */
export interface DispatchOutcome {
  response: JSONRPCResponse;
  notifications: JSONRPCNotification[];
  /** The method's answer is a stream by nature (`subscriptions/listen`). */
  stream?: boolean;
  /** A tool call was refused for lack of these scopes: the transport answers 403 with a challenge naming them. */
  requiredScopes?: readonly string[];
  /**
   * The fields the request's log line carries beside its access fields: a tool call's audit (who called what, how
   * it went), and with tracing the request's `trace_id` and `span_id`.
   */
  audit?: Record<string, unknown>;
}

/** The parts of a server the dispatcher routes to. */
export interface DispatcherOptions
  extends LifecycleOptions, Omit<ToolMethodsOptions, 'capabilities'>, Omit<CodecOptions, 'info'> {
  resources: readonly ResourceProvider[];
  prompts: readonly PromptDefinition[];
}

/** Answers one request. Never throws. */
export type Dispatch = (request: JSONRPCRequest, ctx: DispatchContext) => Promise<DispatchOutcome>;

/**
 * The method table: each capability registers its methods, and only what the server advertises is registered.
 * Every failure becomes a JSON-RPC error here and only here; everything a revision changes is the codec's.
 */
export function createDispatcher(options: DispatcherOptions): Dispatch {
  const { capabilities, resources, prompts, pageSize } = options;
  const methods: MethodTable = {
    ...lifecycleMethods(options),
    ...toolMethods(options),
    ...(capabilities.resources ? resourceMethods({ resources, pageSize }) : {}),
    ...(capabilities.prompts ? promptMethods({ prompts, pageSize }) : {}),
    ...(capabilities.completions ? completionMethods({ prompts, resources }) : {}),
    ...(options.tasks ? lazyTaskMethods(options.tasks) : {}),
  };
  const codecFor = createCodecs({ ...options, info: options.info });

  return async function dispatch(request, ctx) {
    const { method, id } = request;
    const codec = codecFor(ctx.revision);
    const notifications: JSONRPCNotification[] = [];
    // Own keys only: a method named "constructor" or "__proto__" must not find Object.prototype members.
    const spec = Object.hasOwn(methods, method) && codec.has(method) ? methods[method] : undefined;
    if (!spec) return { response: new MethodNotFoundError(method).toResponse(id), notifications };
    const params = request.params ?? {};
    const { live } = ctx;
    const methodCtx: MethodContext = {
      ...ctx,
      id,
      codec,
      emit: live ? (n) => live.send(n) : (n) => notifications.push(n),
    };
    let outcome: DispatchOutcome;
    let error: unknown;
    const started = monotonicMs();
    const call = spec.begin?.(params, methodCtx);
    try {
      const result = codec.result(method, await (call ? call.run() : spec.handler(params, methodCtx)));
      outcome = {
        response: { jsonrpc: '2.0', id, result },
        notifications,
        ...(spec.stream ? { stream: true } : {}),
      };
    } catch (thrown) {
      error = thrown;
      outcome = { response: failure(thrown, request, ctx).toResponse(id), notifications };
      if (thrown instanceof InsufficientScopeError) outcome.requiredScopes = thrown.requiredScopes;
    }
    if (call)
      outcome.audit = call.audit({ response: outcome.response, error, durationMs: monotonicMs() - started });
    return outcome;
  };
}

/** A protocol failure travels as it is; anything else is logged and answered with a generic -32603. */
function failure(error: unknown, request: JSONRPCRequest, ctx: DispatchContext): McpError {
  if (error instanceof McpError) return error;
  ctx.log.error('request failed', {
    method: clientText(request.method),
    error: errorFields(error, { stack: true }),
  });
  return new InternalError(ctx.requestId, request.method);
}
