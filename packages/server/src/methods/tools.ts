import { missingScopes } from '../auth/scopes.ts';
import type { InputTarget } from '../codec/codec.ts';
import { InputRequired, type InputContext } from '../input/input-required.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import { clientText, isShortEcho } from '../protocol/client-text.ts';
import { paginate } from '../protocol/cursor.ts';
import { InsufficientScopeError, InvalidParamsError, UnknownToolError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import { LOGGING_LEVELS, type JSONObject, type ServerCapabilities } from '../protocol/types.ts';
import { Defaults } from '../limits.ts';
import { ToolError } from '../contracts/tool-error.ts';
import type { CallOptions } from '../tools/budget.ts';
import { refusesArguments, type CallContext, type ToolRegistry } from '../tools/registry.ts';
import type { ToolCallObserver, ToolCallOutcome } from '../tools/observer.ts';
import { fitResult } from '../tools/result.ts';
import { callerKey, ownerKey, type MethodContext, type MethodSpec, type MethodTable } from './method.ts';
import type { TaskLoader } from './lazy-tasks.ts';

/** What the tool methods work with. */
export interface ToolMethodsOptions {
  tools: ToolRegistry;
  capabilities: ServerCapabilities;
  pageSize: number;
  /** Time kept back from the invocation deadline for offloading and answering. */
  reserveMs: number;
  /** Applied to every tool result (large outputs to storage); absent when no storage is configured. */
  offloader?: ResultOffloader;
  /** The built-in tool that pages through stored outputs, when registered: the offload notice names it. */
  readTool?: string;
  /**
   * The tasks extension, loaded on the first call of a task tool; absent when the server runs no tasks (task tools
   * then answer in the request).
   */
  tasks?: TaskLoader;
  /** Told about every answered call of a registered tool (per-tool metrics); absent: nobody is. */
  observer?: ToolCallObserver;
}

/** Counts the bytes a request's tool call stores, for its observer record. */
type StoredBytes = (bytes: number) => void;

/** What a call tells its audit besides its answer. */
interface CallNotes {
  /** Counts stored bytes; undefined when no observer needs them. */
  onStored: StoredBytes | undefined;
  /** The call's arguments were refused (the client's mistake, not a tool failure). */
  onRefusedArguments: () => void;
}

/** `tools/list` and `tools/call`. */
export function toolMethods(options: ToolMethodsOptions): MethodTable {
  const { tools, pageSize, observer } = options;
  // Bytes stored by each request's call, keyed by its method context (the handler and the audit share it).
  const stored = new WeakMap<MethodContext, number>();
  const countStored =
    (ctx: MethodContext): StoredBytes =>
    (bytes) =>
      stored.set(ctx, (stored.get(ctx) ?? 0) + bytes);
  // The requests whose call refused its arguments: an `isError` result like a tool failure, but the client's.
  const refused = new WeakSet<MethodContext>();
  return {
    'tools/list': {
      handler: async (params) => {
        const { page, nextCursor } = paginate(
          tools.listed,
          params.cursor,
          pageSize,
          'tools',
          tools.fingerprint,
        );
        return { tools: page, ...(nextCursor ? { nextCursor } : {}) };
      },
    },
    'tools/call': {
      handler: (params, ctx) =>
        callTool(options, params, ctx, {
          onStored: observer ? countStored(ctx) : undefined,
          onRefusedArguments: () => refused.add(ctx),
        }),
      audit: (params, ctx, outcome) => {
        const fields = auditToolCall(tools, params, ctx, outcome, refused.has(ctx));
        // Only registered names: a metric dimension must never be a string the client made up.
        if (observer && typeof params.name === 'string' && tools.has(params.name))
          observer.toolCall({
            tool: params.name,
            outcome: fields.outcome,
            ...('error' in outcome.response ? { errorCode: outcome.response.error.code } : {}),
            durationMs: outcome.durationMs,
            offloadedBytes: stored.get(ctx) ?? 0,
          });
        return fields;
      },
    },
  };
}

/** Checks the call's params; returns the tool's name. Unknown tool → -32602 (spec: tools, "Error Handling"). */
function toolName(params: JSONObject, tools: ToolRegistry): string {
  const name = params.name;
  if (typeof name !== 'string') throw new InvalidParamsError('name must be a string');
  if (params.arguments !== undefined && !isJsonObject(params.arguments))
    throw new InvalidParamsError('arguments must be an object');
  if (!tools.has(name)) throw new UnknownToolError(name);
  return name;
}

async function callTool(
  options: ToolMethodsOptions,
  params: JSONObject,
  ctx: MethodContext,
  notes: CallNotes,
): Promise<JSONObject> {
  const { onStored } = notes;
  const { tools, offloader } = options;
  const name = toolName(params, tools);
  // Tools are listed to everyone; a call is where a tool's scopes are enforced (docs/authorization.md).
  const scopes = tools.scopes(name);
  if (ctx.principal && missingScopes(ctx.principal.scopes, scopes).length)
    throw new InsufficientScopeError(name, scopes);
  const args = (params.arguments ?? {}) as JSONObject;
  const target: InputTarget = {
    kind: 'tool',
    method: 'tools/call',
    name,
    arguments: args,
    ...callerKey(ctx),
  };
  const input = await ctx.codec.input(params, target, ctx);
  // Measured once the state is open: reading its keys (first use in a container) takes part of the invocation.
  const remaining = ctx.deadline === undefined ? Infinity : ctx.deadline - Date.now() - options.reserveMs;
  const callCtx = toolContext(options, params, ctx, { target, input }, onStored);
  // A client that closes its response stream cancels the request (spec: Streamable HTTP), and so the tool.
  const cancel: CallOptions = ctx.signal
    ? { signal: ctx.signal, cancelReason: 'the client closed the connection' }
    : {};
  const support = options.tasks && tools.taskSupport(name);
  if (support) {
    const { onRefusedArguments } = notes;
    const call = {
      tools,
      name,
      args,
      support,
      callCtx,
      target,
      remainingMs: remaining,
      cancel,
      onRefusedArguments,
    };
    const loaded = await options.tasks!();
    const answered = await loaded.callThroughTask(loaded.runtime, call, ctx);
    if (answered) return answered;
  }
  const offload = offloader && {
    ...offloadContext(ctx, name, onStored),
    ...(options.readTool !== undefined ? { readTool: options.readTool } : {}),
  };
  // Streamed outputs are stored as they are produced, within the tool's budget (docs/outputs.md "Streamed outputs").
  // A store still waiting on storage when the budget ends may use the reserve to say so: its cleanup ends half the
  // answer's margin before the deadline (`outputs/writes.ts`), its answer a little later, still before it.
  const streams = offload
    ? {
        streams: offloader.streams(offload),
        storeGraceMs: Math.max(0, options.reserveMs - Defaults.answerMarginMs / 4),
      }
    : {};
  const result = await tools.call(name, args, callCtx, remaining, { ...cancel, ...streams });
  if (refusesArguments(result)) notes.onRefusedArguments();
  if (result instanceof InputRequired) return ctx.codec.askForInput(result, target, ctx);
  const final = offload
    ? await offloader.apply(result, { ...offload, structuredContentRequired: tools.hasOutputSchema(name) })
    : result;
  return ctx.codec.toolResult(fitResult(final, name, offloader !== undefined)) as unknown as JSONObject;
}

const offloadContext = (ctx: MethodContext, tool: string, onStored: StoredBytes | undefined) => ({
  tool,
  requestId: ctx.requestId,
  log: ctx.log,
  ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
  ...(onStored ? { onStored } : {}),
  ...ownerKey(ctx),
});

/** What a tool handler gets besides its arguments and signal: progress, log messages, storage, client input. */
function toolContext(
  options: ToolMethodsOptions,
  params: JSONObject,
  ctx: MethodContext,
  { target, input }: { target: InputTarget; input: InputContext },
  onStored: StoredBytes | undefined,
): CallContext {
  const meta = isJsonObject(params._meta) ? params._meta : {};
  // Every progress notification repeats the token whole: one too long to repeat gets no progress at all.
  const token = meta.progressToken;
  const progressToken =
    (typeof token === 'string' || typeof token === 'number') && isShortEcho(token) ? token : undefined;
  const threshold = options.capabilities.logging ? ctx.codec.logThreshold(meta) : -1;
  const { revision } = ctx.codec;
  return {
    requestId: ctx.requestId,
    era: revision.era,
    protocolVersion: revision.protocolVersion,
    log: ctx.log,
    ...(ctx.principal !== undefined ? { principal: ctx.principal } : {}),
    progress(progress, total, message) {
      if (progressToken === undefined) return;
      ctx.emit({
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
      if (threshold < 0 || LOGGING_LEVELS.indexOf(level) < threshold) return;
      ctx.emit({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, logger: target.name, data },
      });
    },
    closeStream: () => ctx.live?.cut() ?? false,
    store: async (request, signal) => {
      if (!options.offloader) {
        throw new ToolError(
          'This server has no storage for outputs (OFFLOAD_BUCKET is not set), so nothing can be stored.',
        );
      }
      const offload = offloadContext(ctx, target.name, onStored);
      return options.offloader.store(request, { ...offload, ...(signal ? { signal } : {}) });
    },
    ...input,
    asker: ctx.codec.asker({
      input,
      ...(ctx.live ? { live: ctx.live } : {}),
      ...(ctx.session ? { session: ctx.session } : {}),
      ...callerKey(ctx),
      callId: ctx.id,
      log: ctx.log,
    }),
  };
}

/**
 * The audit trail of a tool call, whatever its outcome: who called what and how it went. The transport writes it
 * on the request's one log line. Never the token; the arguments only when the tool opted in (`logArguments`).
 */
const auditToolCall: (
  tools: ToolRegistry,
  ...args: [...Parameters<NonNullable<MethodSpec['audit']>>, refusedArguments: boolean]
) => Record<string, unknown> & { outcome: ToolCallOutcome } = (
  tools,
  params,
  ctx,
  { response, error },
  refusedArguments,
) => {
  const tool = typeof params.name === 'string' ? clientText(params.name) : undefined;
  const result = 'result' in response ? response.result : undefined;
  const verdict: ToolCallOutcome = !result
    ? error instanceof InsufficientScopeError
      ? 'denied'
      : 'rejected'
    : result.resultType === 'input_required' || result.resultType === 'task'
      ? (result.resultType as ToolCallOutcome)
      : result.isError === true
        ? refusedArguments
          ? 'invalid_arguments'
          : 'tool_error'
        : 'ok';
  return {
    tool,
    principal: ctx.principal?.subject ?? 'anonymous',
    ...(ctx.principal?.clientId !== undefined ? { clientId: ctx.principal.clientId } : {}),
    outcome: verdict,
    ...('error' in response ? { errorCode: response.error.code } : {}),
    ...(typeof params.name === 'string' && tools.logsArguments(params.name)
      ? { arguments: loggedArguments(params.arguments ?? {}) }
      : {}),
  };
};

/** Most characters of a tool's arguments in its audit line; larger arguments are logged cut, as text. */
const MAX_LOGGED_ARGUMENTS_CHARS = 4096;

/** The arguments as the audit line carries them: whole when small, else their JSON cut (`clientText`). */
function loggedArguments(args: unknown): unknown {
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    return '(arguments nested too deep to log)';
  }
  return text.length <= MAX_LOGGED_ARGUMENTS_CHARS ? args : clientText(text, MAX_LOGGED_ARGUMENTS_CHARS);
}
