import { isScopeToken } from '../auth/scopes.ts';
import { InputRequired } from '../input/input-required.ts';
import { errorFields } from '../log.ts';
import { UnknownToolError } from '../protocol/errors.ts';
import { listFingerprint } from '../protocol/cursor.ts';
import type { CallToolResult, JsonSchema, Tool } from '../protocol/types.ts';
import type { ToolContext, ToolDefinition } from './define.ts';
import { ToolError } from './define.ts';
import { BudgetExhaustedError, CallBudget } from './budget.ts';
import { scanParamHeaders, type ParamHeader } from './param-headers.ts';
import { contentBlockProblem, toCallToolResult, toolErrorResult } from './result.ts';
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

/** Everything a call needs besides the abort signal and the checkpoint, which the registry owns (its budget). */
export type CallContext = Omit<ToolContext, 'signal' | 'checkpoint'>;

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
        ...(definition._meta ? { _meta: definition._meta } : {}),
      };
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
   * Runs one call within its time budget: the tool's `timeoutMs` (or the default), capped by `remainingMs`. Unknown
   * tool → -32602 (spec: tools, "Error Handling"); everything the tool does wrong → an `isError` result the model
   * can act on, and so is a tool that outlives its budget, even one that returns a result late. When `cancel`
   * aborts (the client went away), the tool's signal fires and the call ends at once.
   */
  async call(
    name: string,
    args: unknown,
    ctx: CallContext,
    remainingMs = Infinity,
    cancel?: AbortSignal,
  ): Promise<CallToolResult | InputRequired> {
    const entry = this.byName.get(name);
    if (!entry) throw new UnknownToolError(name);
    await this.compile(entry);
    const input = args ?? {};
    if (!entry.validateInput!(input)) {
      return toolErrorResult(
        `Invalid arguments for tool "${name}": ${describeErrors(entry.validateInput!.errors)}. ` +
          `Fix the arguments to match the tool's inputSchema and call it again.`,
      );
    }
    const budget = new CallBudget(
      Math.max(
        0,
        Math.floor(Math.min(entry.definition.timeoutMs ?? this.options.defaultTimeoutMs, remainingMs)),
      ),
    );
    try {
      const outcome = await runHandler(entry.definition, input, ctx, budget, cancel);
      if (outcome === CANCELLED) {
        ctx.log.info('tool cancelled: the client went away', { tool: name });
        return toolErrorResult(`Tool "${name}" was cancelled: the client closed the connection.`);
      }
      if (outcome === TIMED_OUT) {
        ctx.log.warn('tool timed out', {
          tool: name,
          budgetMs: budget.ms,
          elapsedMs: Math.round(budget.elapsed()),
        });
        return toolErrorResult(
          `Tool "${name}" did not finish within its time budget of ${budget.ms} ms and was stopped. ` +
            `Try again with a smaller request, or split the work into several calls.`,
        );
      }
      // A request for client input goes back to the caller, whose revision decides how to ask.
      if (outcome instanceof InputRequired) return outcome;
      return this.finish(entry, toCallToolResult(outcome), ctx);
    } catch (error) {
      if (error instanceof ToolError) return toolErrorResult(error.message);
      ctx.log.error('tool threw', { tool: name, error: errorFields(error, { stack: true }) });
      return toolErrorResult(
        `Tool "${name}" failed unexpectedly; the error was logged with request id ${ctx.requestId}. ` +
          `Retrying may help if the failure was transient.`,
      );
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

const TIMED_OUT = Symbol('timed out');
const CANCELLED = Symbol('cancelled');

/**
 * Runs a handler until it settles, its budget runs out (`TIMED_OUT`) or `cancel` aborts (`CANCELLED`); in the last
 * two cases the tool's signal fires with the reason. The budget's timer stops a tool that waits,
 * `ctx.checkpoint()` one that computes, and a result that arrives after the budget anyway is late, so it counts as
 * timed out too.
 */
async function runHandler(
  definition: ToolDefinition,
  input: unknown,
  ctx: CallContext,
  budget: CallBudget,
  cancel: AbortSignal | undefined,
): Promise<unknown> {
  // Most tools never look at their signal: create the controller only when one does.
  let controller: AbortController | undefined;
  let stopped: Error | undefined;
  const stop = (reason: Error) => {
    stopped = reason;
    controller?.abort(reason);
  };
  // A checkpoint also ends a tool whose call was already given up (cancelled or out of time).
  const checkpoint = async () => {
    if (stopped) throw new BudgetExhaustedError();
    await budget.checkpoint();
  };
  const toolCtx = Object.defineProperty({ ...ctx, checkpoint } as ToolContext, 'signal', {
    get: () => {
      if (!controller) {
        controller = new AbortController();
        if (stopped) controller.abort(stopped);
      }
      return controller.signal;
    },
    enumerable: true,
  });
  let timer: NodeJS.Timeout | undefined;
  let onCancel: (() => void) | undefined;
  const interrupted = new Promise<typeof TIMED_OUT | typeof CANCELLED>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), budget.ms);
    onCancel = () => resolve(CANCELLED);
    if (cancel?.aborted) onCancel();
    else cancel?.addEventListener('abort', onCancel, { once: true });
  });
  try {
    const outcome = await Promise.race([
      Promise.resolve().then(() => definition.handler(input, toolCtx)),
      interrupted,
    ]);
    if (outcome === CANCELLED) {
      stop(new Error('request cancelled'));
      return CANCELLED;
    }
    if (outcome !== TIMED_OUT && !budget.spent()) return outcome;
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener('abort', onCancel!);
  }
  stop(new Error('time budget exhausted'));
  return TIMED_OUT;
}
