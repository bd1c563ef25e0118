import { clientText } from '../protocol/client-text.ts';
import { InsufficientScopeError } from '../protocol/errors.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { ToolCallObserver, ToolCallOutcome } from '../tools/observer.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { CallOutcome, MethodContext } from './method.ts';

/** What one tool call notes from its start to its audit. */
export interface ToolCallRecord {
  /** Bytes the call stored (offloaded outputs, `ctx.store()`), counted only when an observer needs them. */
  storedBytes: number;
  /** The call's arguments were refused: an `isError` result like a tool failure, but the client's mistake. */
  refusedArguments: boolean;
}

/**
 * The audit of a tool call for the request's log line, and the observer's record of it (per-tool metrics) when
 * the tool is one the server has: a metric dimension must never be a string the client made up.
 */
export function auditedToolCall(
  tools: ToolRegistry,
  observer: ToolCallObserver | undefined,
  params: JSONObject,
  ctx: MethodContext,
  outcome: CallOutcome,
  record: ToolCallRecord,
): Record<string, unknown> {
  const fields = auditToolCall(tools, params, ctx, outcome, record.refusedArguments);
  if (observer && typeof params.name === 'string' && tools.has(params.name))
    observer.toolCall({
      tool: params.name,
      outcome: fields.outcome,
      ...('error' in outcome.response ? { errorCode: outcome.response.error.code } : {}),
      durationMs: outcome.durationMs,
      offloadedBytes: record.storedBytes,
    });
  return fields;
}

/**
 * The audit trail of a tool call, whatever its outcome: who called what and how it went. The transport writes it
 * on the request's one log line. Never the token; the arguments only when the tool opted in (`logArguments`).
 */
function auditToolCall(
  tools: ToolRegistry,
  params: JSONObject,
  ctx: MethodContext,
  { response, error }: CallOutcome,
  refusedArguments: boolean,
): Record<string, unknown> & { outcome: ToolCallOutcome } {
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
}

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
