/**
 * The per-tool metrics a tool call record yields (Powertools Metrics writes them in the MCP function; the stack's
 * dashboard and alarms read them). Apart from the observer, so the code that turns records into metrics loads only
 * with the metrics.
 */
import type { ToolCallOutcome, ToolCallRecord } from './observer.ts';

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
