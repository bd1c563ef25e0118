import { missingScopes } from '../auth/scopes.ts';
import type { InputTarget } from '../codec/codec.ts';
import { InputRequired } from '../input/input-required.ts';
import { Defaults } from '../limits.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import { paginate } from '../protocol/cursor.ts';
import { InsufficientScopeError, InvalidParamsError, UnknownToolError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject, ServerCapabilities } from '../protocol/types.ts';
import type { CallOptions } from '../tools/budget.ts';
import type { ToolCallObserver } from '../tools/observer.ts';
import { refusesArguments, type ToolRegistry } from '../tools/registry.ts';
import { fitResult } from '../tools/result.ts';
import { offloadContext, toolContext, type StoredBytes } from './call-context.ts';
import type { TaskLoader } from './lazy-tasks.ts';
import { callerKey, type AuditedCall, type MethodContext, type MethodTable } from './method.ts';
import { auditedToolCall, type ToolCallRecord } from './tool-audit.ts';

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

/** `tools/list` and `tools/call`. */
export function toolMethods(options: ToolMethodsOptions): MethodTable {
  const { tools, pageSize, observer } = options;
  // Each call keeps one record, from its start to its audit.
  const begin = (params: JSONObject, ctx: MethodContext): AuditedCall => {
    const record: ToolCallRecord = { storedBytes: 0, refusedArguments: false };
    return {
      run: () => callTool(options, params, ctx, record),
      audit: (outcome) => auditedToolCall(tools, observer, params, ctx, outcome, record),
    };
  };
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
    'tools/call': { handler: (params, ctx) => begin(params, ctx).run(), begin },
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
  record: ToolCallRecord,
): Promise<JSONObject> {
  const { tools, offloader } = options;
  // Stored bytes are counted only for an observer (per-tool metrics).
  const onStored: StoredBytes | undefined = options.observer
    ? (bytes) => (record.storedBytes += bytes)
    : undefined;
  const onRefusedArguments = () => (record.refusedArguments = true);
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
  if (refusesArguments(result)) onRefusedArguments();
  if (result instanceof InputRequired) return ctx.codec.askForInput(result, target, ctx);
  const final = offload
    ? await offloader.apply(result, { ...offload, structuredContentRequired: tools.hasOutputSchema(name) })
    : result;
  return ctx.codec.toolResult(fitResult(final, name, offloader !== undefined)) as unknown as JSONObject;
}
