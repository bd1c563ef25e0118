/**
 * How a `tools/call` ended, as its audit line and the per-tool metrics name it: `ok`, `tool_error` (an `isError`
 * result: the tool failed, timed out or produced something invalid), `invalid_arguments` (an `isError` result: the
 * arguments do not fit the tool's inputSchema, or are too large to run as a task), `rejected` (a JSON-RPC error;
 * `errorCode` says which), `denied` (a JSON-RPC error for missing scopes, HTTP 403), `input_required` (a 2026-07-28
 * request for client input) or `task` (answered with a task that a worker runs).
 */
export type ToolCallOutcome =
  'ok' | 'tool_error' | 'invalid_arguments' | 'rejected' | 'denied' | 'input_required' | 'task';

/** One finished call of a registered tool. */
export interface ToolCallRecord {
  /** The tool's registered name: never a string the client chose that no tool has (bounded cardinality). */
  tool: string;
  outcome: ToolCallOutcome;
  /** The JSON-RPC error code, when the call was answered with an error (`rejected`, `denied`). */
  errorCode?: number;
  /** From the method's start to its answer, offloading included, in ms. */
  durationMs: number;
  /** Bytes the call stored (large outputs and `ctx.store()`); 0 when nothing was stored. */
  offloadedBytes: number;
}

/**
 * Told about every call of a registered tool, once it is answered: per-tool metrics implement it (the Lambda
 * functions with Powertools Metrics). It runs on the request path, so it must be synchronous and cheap (no network
 * calls) and must not throw.
 */
export interface ToolCallObserver {
  toolCall(record: ToolCallRecord): void;
}

/** One observer telling each of `observers` (those given) in turn; undefined when none is given. */
export function observeAll(...observers: (ToolCallObserver | undefined)[]): ToolCallObserver | undefined {
  const present = observers.filter((o): o is ToolCallObserver => o !== undefined);
  if (present.length <= 1) return present[0];
  return {
    toolCall(record) {
      for (const observer of present) observer.toolCall(record);
    },
  };
}
