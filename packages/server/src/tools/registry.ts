import { isScopeToken } from '../auth/scopes.ts';
import { InputRequired } from '../input/input-required.ts';
import { errorFields } from '../log.ts';
import { UnknownToolError } from '../protocol/errors.ts';
import { listFingerprint } from '../protocol/cursor.ts';
import type { CallToolResult, JsonSchema, Tool } from '../protocol/types.ts';
import { checkTaskSupport, type TaskSupport, type ToolDefinition } from './define.ts';
import { ToolError } from '../contracts/tool-error.ts';
import { AskError } from '../contracts/asking.ts';
import { CallBudget, callStreams, CANCELLED, runWithin, TIMED_OUT, type CallOptions } from './budget.ts';
import { cancelReasonOf, type CallContext, type Handler } from './budget.ts';
import { scanParamHeaders, type ParamHeader } from './param-headers.ts';
import { contentBlockProblem, MAX_RESULT_BYTES, toCallToolResult, toolErrorResult } from './result.ts';
import { resolveStreams, type StreamSink } from './streamed.ts';
import { toolMetaWithView } from '../views/tool-meta.ts';
import {
  assertSupportedSchema,
  compileSchema,
  describeErrors,
  type PrecompiledValidators,
  type Validator,
} from './validation.ts';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** Spec default for a tool without arguments. */
const NO_ARGUMENTS: JsonSchema = { type: 'object', additionalProperties: false };

interface RegisteredTool {
  definition: ToolDefinition;
  listed: Tool;
  paramHeaders: ParamHeader[];
  validateInput?: Validator;
  validateOutput?: Validator;
}

export type { CallContext } from './budget.ts';

/** Without storage, a call's streamed outputs are collected inline; the reading code loads with the first one. */
const inlineStreams =
  (tool: string): StreamSink =>
  async (content, signal) =>
    (await import('./stream-reading.ts')).collectInline(content, signal, tool, MAX_RESULT_BYTES);

/** The `isError` results that refuse a call's arguments: the client's mistake, not the tool's failure. */
const ARGUMENT_REFUSALS = new WeakSet<CallToolResult>();

/** Marks `result` as refusing the call's arguments (see {@link refusesArguments}); returns it. */
function argumentsRefusal(result: CallToolResult): CallToolResult {
  ARGUMENT_REFUSALS.add(result);
  return result;
}

/** Whether a result refuses the call's arguments (they do not fit the tool), as opposed to a tool failure. */
export const refusesArguments = (result: unknown): boolean =>
  typeof result === 'object' && result !== null && ARGUMENT_REFUSALS.has(result as CallToolResult);

/**
 * The tool set of one server: checks definitions once, lists them in definition order (deterministic, as
 * 2026-07-28 asks), and runs calls. Tool failures become `isError` results here and nowhere else.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, RegisteredTool>();
  /** Tools as `tools/list` shows them, in definition order. */
  readonly listed: readonly Tool[];
  /** Fingerprint of the tool names, for pagination cursors. */
  readonly fingerprint: string;

  constructor(
    definitions: readonly ToolDefinition[],
    private readonly options: { defaultTimeoutMs: number; validators?: PrecompiledValidators },
  ) {
    for (const definition of definitions) {
      const { name } = definition;
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
        throw new Error(`Tool name ${JSON.stringify(name)} must be 1-128 characters of A-Z a-z 0-9 _ - .`);
      }
      if (this.byName.has(name)) throw new Error(`Tool "${name}" is defined twice`);
      if (typeof definition.handler !== 'function') throw new Error(`Tool "${name}" has no handler`);
      const badScope = (definition.scopes ?? []).find((s) => typeof s !== 'string' || !isScopeToken(s));
      if (badScope !== undefined)
        throw new Error(`Tool "${name}" declares an invalid scope ${JSON.stringify(badScope)}`);
      checkTaskSupport(name, definition.task);
      const inputSchema = definition.inputSchema ?? NO_ARGUMENTS;
      assertSupportedSchema(`Tool "${name}"`, inputSchema, 'inputSchema');
      if (definition.outputSchema)
        assertSupportedSchema(`Tool "${name}"`, definition.outputSchema, 'outputSchema');
      const listed: Tool = {
        name,
        ...(definition.title !== undefined ? { title: definition.title } : {}),
        description: definition.description,
        inputSchema,
        ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
        ...(definition.annotations ? { annotations: definition.annotations } : {}),
        ...(definition.icons ? { icons: definition.icons } : {}),
      };
      const meta = toolMetaWithView(name, definition);
      if (meta) listed._meta = meta;
      const entry: RegisteredTool = { definition, listed, paramHeaders: scanParamHeaders(name, inputSchema) };
      this.byName.set(name, entry);
    }
    this.listed = [...this.byName.values()].map((t) => t.listed);
    this.fingerprint = listFingerprint([...this.byName.keys()]);
  }

  /** Whether a tool of that name exists. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** OAuth scopes a caller needs to call the tool (empty for most tools). */
  scopes(name: string): readonly string[] {
    return this.byName.get(name)?.definition.scopes ?? [];
  }

  /** Whether the tool opted in to having its arguments in the audit log. */
  logsArguments(name: string): boolean {
    return this.byName.get(name)?.definition.logArguments === true;
  }

  /** Whether the tool declares an outputSchema (its structuredContent must then stay in the result). */
  hasOutputSchema(name: string): boolean {
    return this.byName.get(name)?.listed.outputSchema !== undefined;
  }

  /** Whether and how a tool runs as a task; undefined for tools that never do. */
  taskSupport(name: string): TaskSupport | undefined {
    return this.byName.get(name)?.definition.task;
  }

  /** The `x-mcp-header` declarations of a tool (empty for most tools). */
  paramHeaders(name: string): readonly ParamHeader[] {
    return this.byName.get(name)?.paramHeaders ?? [];
  }

  /**
   * Prepares a tool's validators on its first call: once per container, and only for tools actually used.
   * Precompiled validators (generated at build time) are used when they match the schema.
   */
  private async compile(entry: RegisteredTool): Promise<void> {
    const { name, inputSchema, outputSchema } = entry.listed;
    const validators = this.options.validators ?? {};
    entry.validateInput ??= await compileSchema(`${name}#input`, inputSchema, validators);
    if (outputSchema)
      entry.validateOutput ??= await compileSchema(`${name}#output`, outputSchema, validators);
  }

  /**
   * Runs one call within its time budget: the tool's `timeoutMs` (or the default), capped by `remainingMs`, and
   * stopped early when `options.signal` aborts (a cancelled task, a client that went away). Unknown tool → -32602
   * (spec: tools, "Error Handling"); everything the tool does wrong → an `isError` result the model can act on, and
   * so is a tool that outlives its budget, even one that returns a result late.
   */
  async call(
    name: string,
    args: unknown,
    ctx: CallContext,
    remainingMs = Infinity,
    options: CallOptions = {},
  ): Promise<CallToolResult | InputRequired> {
    const entry = await this.entry(name);
    const invalid = this.invalidArguments(entry, args);
    if (invalid) return invalid;
    // Streamed outputs are read (and stored) inside the call's budget: producing them is the tool's work. A store
    // still waiting on storage when the budget ends gets time to say so.
    const { sink, grace, stored } = callStreams(options, () => inlineStreams(name));
    const handler = entry.definition.handler;
    const produce: Handler = async (input, toolCtx) =>
      resolveStreams(await handler(input, toolCtx), sink, () => toolCtx.signal);
    const run = await this.run(entry, produce, args ?? {}, ctx, remainingMs, options, {
      ms: grace,
      onStore: stored,
    });
    if ('failed' in run) return run.failed;
    // A request for client input goes back to the caller, whose revision decides how to ask.
    if (run.value instanceof InputRequired) return run.value;
    return this.finish(entry, toCallToolResult(run.value), ctx);
  }

  /**
   * Runs a task tool's `task.prepare` step in the request, before any task exists: undefined to go on, a request
   * for client input (gathered synchronously, multi round-trip), or an `isError` result.
   */
  async prepare(
    name: string,
    args: unknown,
    ctx: CallContext,
    remainingMs = Infinity,
    options: CallOptions = {},
  ): Promise<CallToolResult | InputRequired | undefined> {
    const entry = await this.entry(name);
    const prepare = entry.definition.task?.prepare;
    if (!prepare) return undefined;
    const invalid = this.invalidArguments(entry, args);
    if (invalid) return invalid;
    const run = await this.run(entry, prepare, args ?? {}, ctx, remainingMs, options);
    if ('failed' in run) return run.failed;
    if (run.value === undefined || run.value instanceof InputRequired) return run.value;
    ctx.log.error('task.prepare returned something other than inputRequired() or nothing', { tool: name });
    return toolErrorResult(`Tool "${name}" is misconfigured (task.prepare); this is a bug in the tool.`);
  }

  private async entry(name: string): Promise<RegisteredTool> {
    const entry = this.byName.get(name);
    if (!entry) throw new UnknownToolError(name);
    await this.compile(entry);
    return entry;
  }

  private invalidArguments(entry: RegisteredTool, args: unknown): CallToolResult | undefined {
    if (entry.validateInput!(args ?? {})) return undefined;
    return argumentsRefusal(
      toolErrorResult(
        `Invalid arguments for tool "${entry.listed.name}": ${describeErrors(entry.validateInput!.errors)}. ` +
          `Fix the arguments to match the tool's inputSchema and call it again.`,
      ),
    );
  }

  /** Runs a handler (or prepare step) within the budget; a throw, timeout or cancellation becomes `isError`. */
  private async run(
    entry: RegisteredTool,
    fn: Handler,
    input: unknown,
    ctx: CallContext,
    remainingMs: number,
    options: CallOptions,
    grace?: Parameters<typeof runWithin>[5],
  ): Promise<{ value: unknown } | { failed: CallToolResult }> {
    const name = entry.listed.name;
    const timeoutMs = entry.definition.timeoutMs ?? options.defaultTimeoutMs ?? this.options.defaultTimeoutMs;
    const budget = new CallBudget(Math.max(0, Math.floor(Math.min(timeoutMs, remainingMs))));
    try {
      const outcome = await runWithin(fn, input, ctx, budget, options, grace);
      if (outcome === CANCELLED) {
        const reason = cancelReasonOf(options);
        ctx.log.info('tool cancelled', { tool: name, ...(reason !== undefined ? { reason } : {}) });
        return { failed: toolErrorResult(`Tool "${name}" was cancelled${reason ? `: ${reason}` : ''}.`) };
      }
      if (outcome === TIMED_OUT) {
        const elapsedMs = Math.round(budget.elapsed());
        ctx.log.warn('tool timed out', { tool: name, budgetMs: budget.ms, elapsedMs });
        return {
          failed: toolErrorResult(
            `Tool "${name}" did not finish within its time budget of ${budget.ms} ms and was stopped. ` +
              `Try again with a smaller request, or split the work into several calls.`,
          ),
        };
      }
      return { value: outcome };
    } catch (error) {
      // An ask the revision answers with a protocol error when the tool does not handle it (2026-07-28 -32021).
      if (error instanceof AskError && error.protocolError) throw error.protocolError;
      if (error instanceof ToolError) return { failed: toolErrorResult(error.message) };
      ctx.log.error('tool threw', { tool: name, error: errorFields(error, { stack: true }) });
      return {
        failed: toolErrorResult(
          `Tool "${name}" failed unexpectedly; the error was logged with request id ${ctx.requestId}. ` +
            `Retrying may help if the failure was transient.`,
        ),
      };
    }
  }

  /** Checks what the handler produced: valid blocks, and conforming structuredContent when an outputSchema exists. */
  private finish(entry: RegisteredTool, result: CallToolResult, ctx: CallContext): CallToolResult {
    const name = entry.listed.name;
    const problem = Array.isArray(result.content)
      ? result.content.map(contentBlockProblem).find(Boolean)
      : 'content must be an array';
    if (problem) {
      ctx.log.error('tool returned an invalid result', { tool: name, problem });
      return toolErrorResult(
        `Tool "${name}" produced an invalid result (${problem}); this is a bug in the tool.`,
      );
    }
    if (entry.validateOutput && !result.isError) {
      if (result.structuredContent === undefined || !entry.validateOutput(result.structuredContent)) {
        const why =
          result.structuredContent === undefined
            ? 'no structuredContent'
            : describeErrors(entry.validateOutput.errors);
        ctx.log.error('tool output does not match its outputSchema', { tool: name, why });
        return toolErrorResult(
          `Tool "${name}" produced output that does not match its outputSchema (${why}); this is a bug in the tool.`,
        );
      }
      if (result.content.length === 0) {
        result = { ...result, content: [{ type: 'text', text: JSON.stringify(result.structuredContent) }] };
      }
    }
    return result;
  }
}
