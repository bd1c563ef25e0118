/**
 * The per-tool metrics a tool call record yields (Powertools Metrics writes them in the MCP function; the stack's
 * dashboard and alarms read them). Apart from the observer, so the code that turns records into metrics loads only
 * with the metrics.
 */
import { ErrorCode } from '../protocol/errors.ts';
import type { ToolCallOutcome, ToolCallRecord } from './observer.ts';

/** Whether an outcome is a JSON-RPC error answer (as opposed to a result, `isError` or not). */
export const isProtocolError = (outcome: ToolCallOutcome): boolean =>
  outcome === 'rejected' || outcome === 'denied';

/** JSON-RPC errors that say the request was wrong, not that the server failed. */
const CLIENT_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.InvalidRequest,
  ErrorCode.InvalidParams,
  ErrorCode.MissingRequiredClientCapability,
]);

/**
 * Whether the client caused the call's failure: a missing scope, arguments that do not fit the tool, invalid
 * params. Any client can cause these at will, so they are counted apart and never trip the error-rate alarm.
 */
export const isClientError = (record: Pick<ToolCallRecord, 'outcome' | 'errorCode'>): boolean =>
  record.outcome === 'denied' ||
  record.outcome === 'invalid_arguments' ||
  (record.outcome === 'rejected' &&
    record.errorCode !== undefined &&
    CLIENT_ERROR_CODES.has(record.errorCode));

/**
 * The per-tool metrics' names, dimensions and CloudWatch units; the dashboard and alarms read the same names. The
 * duration is the OpenTelemetry MCP conventions' histogram (`mcp.server.operation.duration`, in seconds, by
 * `mcp.method.name` and `gen_ai.tool.name`): its sample count is the number of calls. The conventions name no
 * counts of failures, so those keep names of their own, under the same dimensions.
 */
export const ToolMetrics = {
  /** Dimension holding the tool's registered name (beside Powertools' `service`). */
  dimension: 'gen_ai.tool.name',
  /** Dimension holding the MCP method, always `tools/call` here (the conventions' `mcp.method.name`). */
  methodDimension: { name: 'mcp.method.name', value: 'tools/call' },
  duration: { name: 'mcp.server.operation.duration', unit: 'Seconds' },
  toolErrors: { name: 'ToolErrors', unit: 'Count' },
  protocolErrors: { name: 'ProtocolErrors', unit: 'Count' },
  clientErrors: { name: 'ClientErrors', unit: 'Count' },
  offloadedBytes: { name: 'OffloadedBytes', unit: 'Bytes' },
} as const;

/** One value of one metric. */
export interface MetricValue {
  name: string;
  unit: 'Count' | 'Seconds' | 'Bytes';
  value: number;
}

/**
 * The metric values one record yields. Errors and bytes are written only when there are some: CloudWatch bills a
 * custom metric for each hour it receives data, and the dashboard and alarm read a missing error count as zero.
 */
export function toolMetricValues(record: ToolCallRecord): MetricValue[] {
  const { duration, toolErrors, protocolErrors, clientErrors, offloadedBytes } = ToolMetrics;
  const clientError = isClientError(record);
  return [
    // Microsecond precision: a histogram of seconds still tells a 0.2 ms call from a 0.3 ms one.
    { ...duration, value: Math.round(record.durationMs * 1000) / 1_000_000 },
    // The tool failed; a JSON-RPC error the server caused; the client's own mistake (apart from both).
    ...(record.outcome === 'tool_error' ? [{ ...toolErrors, value: 1 }] : []),
    ...(isProtocolError(record.outcome) && !clientError ? [{ ...protocolErrors, value: 1 }] : []),
    ...(clientError ? [{ ...clientErrors, value: 1 }] : []),
    ...(record.offloadedBytes > 0 ? [{ ...offloadedBytes, value: record.offloadedBytes }] : []),
  ];
}
