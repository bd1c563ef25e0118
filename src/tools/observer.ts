/**
 * How a `tools/call` ended, as its audit line and the per-tool metrics name it: `ok`, `tool_error` (an `isError`
 * result: the tool failed, timed out or was refused its arguments), `rejected` (a JSON-RPC error), `denied` (a
 * JSON-RPC error for missing scopes, HTTP 403), `input_required` (a 2026-07-28 request for client input) or `task`
 * (answered with a task that a worker runs).
 */
export type ToolCallOutcome = 'ok' | 'tool_error' | 'rejected' | 'denied' | 'input_required' | 'task';

/** One finished call of a registered tool. */
export interface ToolCallRecord {
  /** The tool's registered name: never a string the client chose that no tool has (bounded cardinality). */
  tool: string;
  outcome: ToolCallOutcome;
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

/** Whether an outcome is a JSON-RPC error answer (as opposed to a result, `isError` or not). */
export const isProtocolError = (outcome: ToolCallOutcome): boolean =>
  outcome === 'rejected' || outcome === 'denied';

/** The per-tool metrics' names and their CloudWatch units; the dashboard and alarms read the same names. */
export const ToolMetrics = {
  /** Dimension holding the tool's registered name (beside Powertools' `service`). */
  dimension: 'tool',
  invocations: { name: 'Invocations', unit: 'Count' },
  toolErrors: { name: 'ToolErrors', unit: 'Count' },
  protocolErrors: { name: 'ProtocolErrors', unit: 'Count' },
  duration: { name: 'Duration', unit: 'Milliseconds' },
  offloadedBytes: { name: 'OffloadedBytes', unit: 'Bytes' },
} as const;

/** One value of one metric. */
export interface MetricValue {
  name: string;
  unit: 'Count' | 'Milliseconds' | 'Bytes';
  value: number;
}

/**
 * The metric values one record yields. Errors and bytes are written only when there are some: CloudWatch bills a
 * custom metric for each hour it receives data, and the dashboard and alarm read a missing error count as zero.
 */
export function toolMetricValues(record: ToolCallRecord): MetricValue[] {
  const { invocations, toolErrors, protocolErrors, duration, offloadedBytes } = ToolMetrics;
  return [
    { ...invocations, value: 1 },
    { ...duration, value: Math.round(record.durationMs * 100) / 100 },
    ...(record.outcome === 'tool_error' ? [{ ...toolErrors, value: 1 }] : []),
    ...(isProtocolError(record.outcome) ? [{ ...protocolErrors, value: 1 }] : []),
    ...(record.offloadedBytes > 0 ? [{ ...offloadedBytes, value: record.offloadedBytes }] : []),
  ];
}
