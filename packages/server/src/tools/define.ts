import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { InputRequired } from '../input/input-required.ts';
import type { CallToolResult, ContentBlock, JSONObject, JsonSchema, Tool } from '../protocol/types.ts';
import type { ApprovalSpec } from '../contracts/approval.ts';
import type { ToolVisibility, ViewDefinition } from '../contracts/view.ts';
import type { ToolContext } from '../contracts/tool-context.ts';
import type { StreamedContent } from './streamed.ts';

/**
 * Anything a handler may return: text, one or more content blocks, a full result, a structured object, a request
 * for client input (`inputRequired`, 2026-07-28), or a streamed output (`streamedText`, `streamedBytes`) alone, among
 * blocks, or in a result's `content`.
 */
export type ToolReturn<Out = JSONObject> =
  | string
  | ContentBlock
  | StreamedContent
  | (ContentBlock | StreamedContent)[]
  | CallToolResult
  | (Omit<CallToolResult, 'content'> & { content: (ContentBlock | StreamedContent)[] })
  | InputRequired
  | Out;

type Args<I> = I extends JSONSchema
  ? JSONSchema extends I
    ? Record<string, unknown>
    : FromSchema<I>
  : never;

/** What a tool adds to its listed form (`Tool`) besides the handler: a time budget, scopes, audit logging. */
interface ToolOptions {
  /** Time budget for one call in milliseconds (capped by the invocation's remaining time). */
  timeoutMs?: number;
  /**
   * OAuth scopes a caller's token must grant to call this tool (besides the server's required scopes). The tool
   * is still listed to everyone; a call without them is refused with 403 `insufficient_scope`, naming the scopes
   * so the client can ask for them. Not enforced when authorization is off.
   */
  scopes?: readonly string[];
  /** Write the call's arguments into the audit log line. Default false: arguments may hold personal data. */
  logArguments?: boolean;
  /** Whether and how the tool runs as a task (docs/tasks.md); default: never, every call answers in the request. */
  task?: TaskSupport;
  /**
   * The view hosts that render MCP Apps show this tool's results in (`_meta.ui.resourceUri`, docs/views.md); the
   * server serves it. Hosts without views show the result's `content`, so keep that meaningful. Default none.
   */
  view?: ViewDefinition;
  /**
   * Who may call the tool: `['model', 'app']` (the default) or `['app']` for a tool only views call (hosts hide it
   * from the model). Hosts enforce it, not the server: never let it guard anything on its own.
   */
  visibility?: readonly ToolVisibility[];
  /**
   * Ask the person before the handler runs (docs/views.md "Approval"): a call proposes, and the handler runs once
   * the person approves in the approval view or answers an elicitation, at most once per approval. Default none.
   */
  approval?: ApprovalSpec;
}

/**
 * A tool that may run as a task (the tasks extension, `io.modelcontextprotocol/tasks`): the server answers the call
 * with a task, runs the tool in a worker for up to 15 minutes, and the client polls `tasks/get` for the result.
 * Only clients that declare the extension on the request get tasks (2026-07-28 revision).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool of any arguments: defineTool checks each against its schema
export interface TaskSupport<A = any> {
  /**
   * `optional`: a task for clients that accept tasks, an ordinary call (within the request's time limit) for the
   * others. `required`: only ever a task; other clients are told the tool needs the tasks extension (-32021).
   */
  mode: 'optional' | 'required';
  /**
   * Wait up to this many ms for the task to finish before answering: a tool that finishes in time answers with
   * its result, as an ordinary call would (SEP-2663's immediate-result shortcut); one that does not answers with
   * the task. The run is the same either way (it is never started twice). Default 0: answer with the task at once.
   */
  afterMs?: number;
  /**
   * Runs in the request before a task is made (SEP-2663: input is gathered synchronously before the task): return
   * `inputRequired(...)` to ask the client first (the retry comes back here with `ctx.inputResponses`), or nothing
   * to go on. The task's first run then finds the last round's answers and state in `ctx.inputResponses` and
   * `ctx.requestState`.
   */
  prepare?: (args: A, ctx: ToolContext) => InputRequired | undefined | Promise<InputRequired | undefined>;
}

/** The definition a template user writes: see README "Add a tool". */
export interface ToolSpec<I, O>
  extends
    Omit<Tool, 'name' | 'description' | 'inputSchema' | 'outputSchema'>,
    Omit<ToolOptions, 'task' | 'approval'> {
  /** 1–128 characters of A-Z a-z 0-9 _ - . (unique within the server). */
  name: string;
  description: string;
  /** JSON Schema 2020-12 for the arguments; root `type: "object"`. Defaults to "no arguments". */
  inputSchema?: I;
  /** JSON Schema 2020-12 for `structuredContent`; when present, the result must conform. */
  outputSchema?: O;
  /** Whether and how the tool runs as a task (docs/tasks.md); default: never. */
  task?: TaskSupport<Args<I>>;
  /** Ask the person before the handler runs (docs/views.md "Approval"); default: never. */
  approval?: ApprovalSpec<Args<I>>;
  handler: (
    args: Args<I>,
    ctx: ToolContext,
  ) =>
    | ToolReturn<O extends JSONSchema ? FromSchema<O> : JSONObject>
    | Promise<ToolReturn<O extends JSONSchema ? FromSchema<O> : JSONObject>>;
}

/** A tool as the registry holds it (argument types erased). */
export interface ToolDefinition extends Omit<Tool, 'description' | 'inputSchema'>, ToolOptions {
  description: string;
  inputSchema?: JsonSchema;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of different arguments in one list; defineTool typed each
  handler: (args: any, ctx: ToolContext) => unknown;
}

/**
 * Defines a tool. Write schemas `as const` to get typed arguments:
 * `defineTool({ name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } as const, ... })`.
 */
export function defineTool<
  const I extends JSONSchema = { type: 'object'; additionalProperties: false },
  const O extends JSONSchema | undefined = undefined,
>(spec: ToolSpec<I, O>): ToolDefinition {
  return spec as unknown as ToolDefinition;
}

/** Refuses a `task` declaration that could only fail later. */
export function checkTaskSupport(name: string, task: TaskSupport | undefined): void {
  if (task === undefined) return;
  if (task.mode !== 'optional' && task.mode !== 'required')
    throw new Error(
      `Tool "${name}" declares task.mode ${JSON.stringify(task.mode)}; use "optional" or "required"`,
    );
  if (task.afterMs !== undefined && !(Number.isInteger(task.afterMs) && task.afterMs >= 0))
    throw new Error(
      `Tool "${name}" declares task.afterMs ${task.afterMs}; use a whole number of ms, 0 or more`,
    );
  if (task.prepare !== undefined && typeof task.prepare !== 'function')
    throw new Error(`Tool "${name}" declares a task.prepare that is not a function`);
}
