import type { Principal } from './auth/principal.ts';
import { missingScopes } from './auth/scopes.ts';
import {
  checkInputRequests,
  InputRequired,
  inputRequiredResult,
  readInputResponses,
} from './input/input-required.ts';
import type { RequestStateCodec } from './input/request-state.ts';
import type { Logger } from './log.ts';
import { listFingerprint, paginate } from './protocol/cursor.ts';
import { ErrorCode, McpError } from './protocol/errors.ts';
import { errorResponse } from './protocol/jsonrpc.ts';
import type {
  CacheHint,
  CallToolResult,
  GetPromptResult,
  Implementation,
  JSONObject,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  LoggingLevel,
  ResourceLink,
  ServerCapabilities,
} from './protocol/types.ts';
import {
  MetaKey,
  negotiateLegacyVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  type RequestEra,
} from './protocol/versions.ts';
import type { PromptDefinition } from './prompts/define.ts';
import type { ResourceContext, ResourceProvider } from './resources/provider.ts';
import { ToolError, type StoreRequest, type ToolContext } from './tools/define.ts';
import type { ToolRegistry } from './tools/registry.ts';
import { fitResult, withLinksAsText } from './tools/result.ts';
import { isJsonObject } from './protocol/json.ts';

/** Post-processing applied to every tool result in one place (the offload policy plugs in here). */
export interface ResultOffloader {
  apply(
    result: CallToolResult,
    ctx: {
      tool: string;
      requestId: string;
      principal?: string;
      log: Logger;
      /** The tool has an outputSchema, so structuredContent must stay in the result. */
      structuredContentRequired?: boolean;
    },
  ): Promise<CallToolResult>;
  store(
    request: StoreRequest,
    ctx: { tool: string; requestId: string; principal?: string; log: Logger },
  ): Promise<ResourceLink>;
}

/** Everything the dispatcher needs to know about one request, besides the message itself. */
export interface DispatchContext {
  era: RequestEra;
  /** Invocation id (Lambda request id or the local server's). */
  requestId: string;
  /** Epoch milliseconds by which the response must be on its way (Lambda deadline), if known. */
  deadline?: number;
  /** The authenticated caller; absent when authorization is off. */
  principal?: Principal;
  log: Logger;
}

/** A response plus the notifications emitted while producing it (sent first when the response is an SSE stream). */
export interface DispatchOutcome {
  response: JSONRPCResponse;
  notifications: JSONRPCNotification[];
  /** HTTP status the spec names for this outcome (404 for a modern unknown method, else 200). */
  httpStatus: number;
  /** The method's answer is a stream by nature (`subscriptions/listen`). */
  stream?: boolean;
  /** A tool call was refused for lack of these scopes: the transport answers 403 with a challenge naming them. */
  requiredScopes?: readonly string[];
  /** For tool calls, the audit fields (who called what, how it went) the request's log line carries. */
  audit?: Record<string, unknown>;
}

/** The parts of a server the dispatcher routes to. */
export interface DispatcherOptions {
  info: Implementation;
  instructions?: string;
  capabilities: ServerCapabilities;
  tools: ToolRegistry;
  resources: readonly ResourceProvider[];
  prompts: readonly PromptDefinition[];
  pageSize: number;
  /** Time kept back from the invocation deadline for offloading and answering. */
  reserveMs: number;
  /** Cache hint for list results and `server/discover` (2026-07-28). */
  listCache: CacheHint;
  offloader?: ResultOffloader;
  /** Seals the `requestState` of multi round-trip requests (2026-07-28). */
  requestState: RequestStateCodec;
}

type Handler = (
  params: JSONObject,
  ctx: DispatchContext,
  emit: (n: JSONRPCNotification) => void,
  id: JSONRPCRequest['id'],
) => Promise<JSONObject>;

/** Results that carry cache hints in the 2026-07-28 revision (spec: server/utilities/caching). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
const LEGACY_ONLY = new Set(['initialize', 'ping', 'logging/setLevel']);
const MODERN_ONLY = new Set(['server/discover', 'subscriptions/listen']);
const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** A caller whose token lacks a tool's scopes (RFC 6750 §3.1 `insufficient_scope`; HTTP 403). */
class InsufficientScopeError extends McpError {
  constructor(
    tool: string,
    readonly requiredScopes: readonly string[],
  ) {
    super(
      ErrorCode.ServerError,
      `Forbidden: tool "${tool}" needs the scope(s) ${requiredScopes.join(', ')}`,
      { requiredScopes },
      403,
    );
  }
}

/** The identity string stored outputs and request states are bound to: the principal's opaque key. */
const callerKey = (ctx: DispatchContext) =>
  ctx.principal !== undefined ? { principal: ctx.principal.key } : {};

/** A client-supplied name, safe to echo: strings are cut short, anything else is only named by its type. */
const echo = (value: unknown): string =>
  typeof value === 'string' ? value.slice(0, 128) : `(${value === null ? 'null' : typeof value})`;
const invalidParams = (message: string, data?: unknown) =>
  new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`, data);

/**
 * Routes one JSON-RPC request to its method and turns every failure into a JSON-RPC error, here and only here.
 * Both eras share the same registries; the era only changes the envelope of the answer.
 */
export function createDispatcher(options: DispatcherOptions) {
  const { tools, resources, prompts, pageSize, info, capabilities } = options;
  const promptNames = prompts.map((p) => p.name);
  const resourceContext = (ctx: DispatchContext): ResourceContext => ({
    era: ctx.era.era,
    requestId: ctx.requestId,
    log: ctx.log,
    ...callerKey(ctx),
  });
  /** What a handler learns of the 2026-07-28 multi round-trip fields; the handshake era has none of them. */
  const inputContext = (params: JSONObject, ctx: DispatchContext, method: string, name: string) => {
    if (ctx.era.era !== 'modern')
      return { clientCapabilities: {}, inputResponses: {}, requestState: undefined };
    const binding = { method, name, ...callerKey(ctx) };
    return {
      clientCapabilities: ctx.era.clientCapabilities ?? {},
      inputResponses: readInputResponses(params.inputResponses),
      requestState:
        params.requestState === undefined
          ? undefined
          : options.requestState.open(params.requestState, binding),
    };
  };
  let warnedEphemeralState = false;
  /** Turns a handler's request for input into an InputRequiredResult (only reached in 2026-07-28). */
  const askForInput = (request: InputRequired, ctx: DispatchContext, method: string, name: string) => {
    checkInputRequests(request, ctx.era.clientCapabilities ?? {});
    if (request.state !== undefined && options.requestState.ephemeral && !warnedEphemeralState) {
      warnedEphemeralState = true;
      ctx.log.warn(
        'requestState is sealed with a key random to this instance; set requestStateSecret so that ' +
          'any instance can serve the retry',
        { method, name },
      );
    }
    const binding = { method, name, ...callerKey(ctx) };
    const sealed =
      request.state === undefined ? undefined : options.requestState.seal(request.state, binding);
    return inputRequiredResult(request, sealed);
  };
  const resourceNotFound = (uri: string, ctx: DispatchContext) =>
    // 2026-07-28 forbids -32002 and uses -32602; the handshake era uses -32002. Both carry data.uri.
    ctx.era.era === 'modern'
      ? new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri })
      : new McpError(ErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri });

  const handlers: Record<string, Handler> = {
    initialize: async (params) => ({
      protocolVersion: negotiateLegacyVersion(params.protocolVersion),
      capabilities,
      serverInfo: info,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    }),
    ping: async () => ({}),
    'logging/setLevel': async (params) => {
      if (!capabilities.logging)
        throw new McpError(ErrorCode.MethodNotFound, 'Method not found: logging/setLevel');
      if (!LOG_LEVELS.includes(params.level as LoggingLevel))
        throw invalidParams('level must be a logging level');
      return {};
    },
    'server/discover': async () => ({
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities,
      ...(options.instructions ? { instructions: options.instructions } : {}),
    }),
    'subscriptions/listen': async (params, _ctx, emit, id) => {
      if (!isJsonObject(params.notifications))
        throw invalidParams('notifications must be a subscription filter object');
      // Nothing here can change while a Lambda runs, so we honour no notification type: acknowledge an empty
      // filter, then end the subscription at once with its result.
      // The acknowledgement is the first message carrying the subscription's id (schema:
      // SubscriptionsAcknowledgedNotification); the request id serves as that id.
      emit({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: {}, _meta: { [MetaKey.SubscriptionId]: id } },
      });
      return { _meta: { [MetaKey.SubscriptionId]: id } };
    },
    'tools/list': async (params) => {
      const { page, nextCursor } = paginate(
        tools.listed,
        params.cursor,
        pageSize,
        'tools',
        tools.fingerprint,
      );
      return { tools: page, ...(nextCursor ? { nextCursor } : {}) };
    },
    'tools/call': async (params, ctx, emit) => {
      const name = params.name;
      if (typeof name !== 'string') throw invalidParams('name must be a string');
      if (params.arguments !== undefined && !isJsonObject(params.arguments))
        throw invalidParams('arguments must be an object');
      if (!tools.has(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
      // Tools are listed to everyone; a call is where a tool's scopes are enforced (README "Authorization").
      const scopes = tools.scopes(name);
      if (ctx.principal && missingScopes(ctx.principal.scopes, scopes).length)
        throw new InsufficientScopeError(name, scopes);
      const remaining = ctx.deadline === undefined ? Infinity : ctx.deadline - Date.now() - options.reserveMs;
      const meta = isJsonObject(params._meta) ? params._meta : {};
      const progressToken = meta.progressToken;
      const input = inputContext(params, ctx, 'tools/call', name);
      // 2026-07-28 has no logging/setLevel: a request asks for log messages with _meta logLevel, and gets none
      // without it. The handshake era cannot remember a level between requests, so it gets every message.
      const logLevel = meta[MetaKey.LogLevel];
      const minimumSeverity = ctx.era.era === 'modern' ? LOG_LEVELS.indexOf(logLevel as LoggingLevel) : 0;
      const offloadCtx = {
        tool: name,
        requestId: ctx.requestId,
        log: ctx.log,
        ...callerKey(ctx),
      };
      const toolCtx: Omit<ToolContext, 'signal'> = {
        requestId: ctx.requestId,
        era: ctx.era.era,
        protocolVersion: ctx.era.protocolVersion,
        log: ctx.log,
        ...(ctx.principal !== undefined ? { principal: ctx.principal } : {}),
        progress(progress, total, message) {
          if (typeof progressToken !== 'string' && typeof progressToken !== 'number') return;
          emit({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message ? { message } : {}),
            },
          });
        },
        notify(level, data) {
          if (!capabilities.logging || minimumSeverity < 0) return;
          if (LOG_LEVELS.indexOf(level) < minimumSeverity) return;
          emit({ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: name, data } });
        },
        store: async (request) => {
          if (!options.offloader) {
            throw new ToolError(
              'This server has no storage for outputs (OFFLOAD_BUCKET is not set), so nothing can be stored.',
            );
          }
          return options.offloader.store(request, offloadCtx);
        },
        ...input,
      };
      const result = await tools.call(name, params.arguments ?? {}, toolCtx, remaining);
      if (result instanceof InputRequired) return askForInput(result, ctx, 'tools/call', name);
      const final = options.offloader
        ? await options.offloader.apply(result, {
            ...offloadCtx,
            structuredContentRequired: tools.listed.some(
              (t) => t.name === name && t.outputSchema !== undefined,
            ),
          })
        : result;
      const fitted = fitResult(final, name, options.offloader !== undefined);
      return (ctx.era.protocolVersion === '2025-03-26'
        ? withLinksAsText(fitted)
        : fitted) as unknown as JSONObject;
    },
    'resources/list': async (params, ctx) => {
      const all = (await Promise.all(resources.map((p) => p.list?.(resourceContext(ctx)) ?? []))).flat();
      const { page, nextCursor } = paginate(
        all,
        params.cursor,
        pageSize,
        'resources',
        listFingerprint(all.map((r) => r.uri)),
      );
      return { resources: page, ...(nextCursor ? { nextCursor } : {}) };
    },
    'resources/templates/list': async (params) => {
      const all = resources.flatMap((p) => p.templates?.() ?? []);
      const fp = listFingerprint(all.map((t) => t.uriTemplate));
      const { page, nextCursor } = paginate(all, params.cursor, pageSize, 'templates', fp);
      return { resourceTemplates: page, ...(nextCursor ? { nextCursor } : {}) };
    },
    'resources/read': async (params, ctx) => {
      const uri = params.uri;
      if (typeof uri !== 'string' || uri.length === 0) throw invalidParams('uri must be a non-empty string');
      const provider = resources.find((p) => p.owns(uri));
      const read = provider ? await provider.read(uri, resourceContext(ctx)) : undefined;
      if (!read || read.contents.length === 0) throw resourceNotFound(uri, ctx);
      return { contents: read.contents, ...(read.cache ?? { ttlMs: 0, cacheScope: 'private' }) };
    },
    'prompts/list': async (params) => {
      const listed = prompts.map(({ handler: _h, complete: _c, ...p }) => p);
      const { page, nextCursor } = paginate(
        listed,
        params.cursor,
        pageSize,
        'prompts',
        listFingerprint(promptNames),
      );
      return { prompts: page, ...(nextCursor ? { nextCursor } : {}) };
    },
    'prompts/get': async (params, ctx) => {
      const prompt = prompts.find((p) => p.name === params.name);
      if (!prompt) throw invalidParams(`unknown prompt ${echo(params.name)}`, { name: echo(params.name) });
      const args = isJsonObject(params.arguments) ? (params.arguments as Record<string, string>) : {};
      const missing = (prompt.arguments ?? []).filter((a) => a.required && typeof args[a.name] !== 'string');
      if (missing.length)
        throw invalidParams(`missing required argument(s): ${missing.map((a) => a.name).join(', ')}`);
      const input = inputContext(params, ctx, 'prompts/get', prompt.name);
      const out = await prompt.handler(args, {
        requestId: ctx.requestId,
        era: ctx.era.era,
        log: ctx.log,
        ...input,
      });
      if (out instanceof InputRequired) {
        if (ctx.era.era === 'modern') return askForInput(out, ctx, 'prompts/get', prompt.name);
        // The handshake era cannot carry the question on a stateless server (see ToolRegistry.inputRequired).
        throw new McpError(
          ErrorCode.InvalidRequest,
          `Prompt ${prompt.name} needs input from the client, which this server can only ask for over protocol revision 2026-07-28`,
        );
      }
      const result: GetPromptResult =
        typeof out === 'string'
          ? { messages: [{ role: 'user', content: { type: 'text', text: out } }] }
          : out;
      return {
        ...(prompt.description ? { description: prompt.description } : {}),
        ...result,
      } as unknown as JSONObject;
    },
    'completion/complete': async (params) => {
      if (!capabilities.completions)
        throw new McpError(ErrorCode.MethodNotFound, 'Method not found: completion/complete');
      const ref = isJsonObject(params.ref) ? params.ref : {};
      const argument = isJsonObject(params.argument) ? params.argument : {};
      if (typeof argument.name !== 'string' || typeof argument.value !== 'string') {
        throw invalidParams('argument.name and argument.value must be strings');
      }
      let all: string[] = [];
      if (ref.type === 'ref/prompt') {
        const prompt = prompts.find((p) => p.name === ref.name);
        if (!prompt) throw invalidParams(`unknown prompt ${echo(ref.name)}`, { name: echo(ref.name) });
        all = prompt.complete ? await prompt.complete(argument.name, argument.value) : [];
      } else if (ref.type === 'ref/resource') {
        const uri = ref.uri;
        if (typeof uri !== 'string') throw invalidParams('ref.uri must be a string');
        const provider = resources.find((p) => p.templates?.().some((t) => t.uriTemplate === uri));
        if (!provider) throw invalidParams(`unknown resource template ${uri}`, { uri });
        all = (await provider.complete?.(uri, argument.name, argument.value)) ?? [];
      } else {
        throw invalidParams('ref.type must be ref/prompt or ref/resource');
      }
      // Spec (utilities/completion): at most 100 values per response; total and hasMore tell the rest.
      const values = all.slice(0, 100);
      return { completion: { values, total: all.length, hasMore: all.length > values.length } };
    },
  };

  const serverInfoMeta = {
    name: info.name,
    version: info.version,
    ...(info.title ? { title: info.title } : {}),
  };
  const available = (method: string): boolean => {
    if (method.startsWith('prompts/') && prompts.length === 0) return false;
    if (method.startsWith('resources/') && resources.length === 0) return false;
    // A method of a capability not advertised is unknown here, so 2026-07-28 answers it with 404 too.
    if (method === 'completion/complete' && !capabilities.completions) return false;
    if (method === 'logging/setLevel' && !capabilities.logging) return false;
    return Object.hasOwn(handlers, method);
  };

  /**
   * The audit trail of a tool call, whatever its outcome: who called what and how it went. The transport writes it
   * on the request's one log line. Never the token; the arguments only when the tool opted in (`logArguments`).
   */
  function audit(
    request: JSONRPCRequest,
    ctx: DispatchContext,
    outcome: DispatchOutcome,
  ): Record<string, unknown> {
    const params = request.params ?? {};
    const tool = typeof params.name === 'string' ? params.name.slice(0, 128) : undefined;
    const response = outcome.response;
    const result = 'result' in response ? response.result : undefined;
    const verdict = !result
      ? outcome.requiredScopes
        ? 'denied'
        : 'rejected'
      : result.resultType === 'input_required'
        ? 'input_required'
        : result.isError === true
          ? 'tool_error'
          : 'ok';
    return {
      tool,
      principal: ctx.principal?.subject ?? 'anonymous',
      ...(ctx.principal?.clientId !== undefined ? { clientId: ctx.principal.clientId } : {}),
      outcome: verdict,
      ...('error' in response ? { errorCode: response.error.code } : {}),
      ...(tool !== undefined && tools.logsArguments(tool) ? { arguments: params.arguments ?? {} } : {}),
    };
  }

  /** Answers one request. Never throws. Tool calls carry their audit fields. */
  return async function dispatch(request: JSONRPCRequest, ctx: DispatchContext): Promise<DispatchOutcome> {
    const outcome = await answer(request, ctx);
    if (request.method === 'tools/call') outcome.audit = audit(request, ctx, outcome);
    return outcome;
  };

  /** Routes one request and turns every failure into a JSON-RPC error. Never throws. */
  async function answer(request: JSONRPCRequest, ctx: DispatchContext): Promise<DispatchOutcome> {
    const { method, id } = request;
    const modern = ctx.era.era === 'modern';
    const notifications: JSONRPCNotification[] = [];
    const known = available(method) && !(modern ? LEGACY_ONLY : MODERN_ONLY).has(method);
    if (!known) {
      return {
        response: errorResponse(id, new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`)),
        notifications,
        // 2026-07-28 Streamable HTTP: an unknown method is answered with HTTP 404.
        httpStatus: modern ? 404 : 200,
      };
    }
    try {
      const params = request.params ?? {};
      let result = await handlers[method]!(params, ctx, (n) => notifications.push(n), id);
      if (modern) {
        const meta = isJsonObject(result._meta) ? result._meta : {};
        const complete = result.resultType !== 'input_required';
        result = {
          ...result,
          resultType: complete ? 'complete' : 'input_required',
          _meta: { ...meta, [MetaKey.ServerInfo]: serverInfoMeta },
        };
        if (complete && CACHEABLE.has(method) && !('ttlMs' in result))
          result = { ...result, ...options.listCache };
      } else if ('ttlMs' in result) {
        const { ttlMs: _t, cacheScope: _s, ...rest } = result;
        result = rest;
      }
      return {
        response: { jsonrpc: '2.0', id, result },
        notifications,
        httpStatus: 200,
        ...(method === 'subscriptions/listen' ? { stream: true } : {}),
      };
    } catch (error) {
      // Most protocol errors travel in a 200; the few the spec gives a status (e.g. -32021 → 400) carry it.
      if (error instanceof InsufficientScopeError)
        return {
          response: errorResponse(id, error),
          notifications,
          httpStatus: error.httpStatus,
          requiredScopes: error.requiredScopes,
        };
      if (error instanceof McpError)
        return { response: errorResponse(id, error), notifications, httpStatus: error.httpStatus };
      ctx.log.error('request failed', {
        method,
        error:
          error instanceof Error
            ? { name: error.name, message: error.message, stack: error.stack }
            : String(error),
      });
      const internal = new McpError(
        ErrorCode.InternalError,
        `Internal error while handling ${method} (request id ${ctx.requestId})`,
      );
      return { response: errorResponse(id, internal), notifications, httpStatus: 200 };
    }
  }
}

export type Dispatch = ReturnType<typeof createDispatcher>;
