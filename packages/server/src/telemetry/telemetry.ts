import { oneOf, type Env } from '../config-values.ts';
import type { Dispatch } from '../dispatcher.ts';
import type { Transport } from '../http/transport.ts';
import type { InstrumentClient } from '../outbound.ts';

/**
 * How a function traces (MCP_TRACING): `off` loads no tracing code at all; `propagation` continues the client's
 * trace context (log lines carry its ids, calls onward carry it) without recording spans of its own; `on` records
 * spans by the OpenTelemetry MCP conventions and exports them over OTLP (the `OTEL_*` variables; X-Ray's OTLP
 * endpoint is signed for); `console` prints them as a readable tree instead (local development).
 */
const TRACING_MODES = ['off', 'propagation', 'on', 'console'] as const;
export type TracingMode = (typeof TRACING_MODES)[number];

/**
 * A tracing mode from the environment (MCP_TRACING, BRIDGE_TRACING), `true`/`false` read as `on`/`off`. `xray`, the
 * X-Ray SDK path this replaced, fails start-up saying what to set instead: a silent fallback would lose the traces.
 */
export function tracingMode(env: Env, name: string): TracingMode {
  if (env[name]?.trim().toLowerCase() === 'xray')
    throw new Error(
      `Configuration: ${name}=xray was removed with the X-Ray SDK (its support ends in February 2027). Set ${name}=on ` +
        "and OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=https://xray.<region>.amazonaws.com/v1/traces (the stack's `tracing` " +
        'option sets both; docs/operations.md, "Tracing")',
    );
  return oneOf(env, name, TRACING_MODES, 'off', { true: 'on', false: 'off' });
}

/** Attribute values a span may carry: never an argument, an output, a token, a session id or a stored output's URI. */
export type SpanAttributes = Record<string, string | number | boolean | string[]>;

/**
 * A named piece of work inside the current span (a tool's handler): runs `work` inside a child span of its own. With
 * `stopped`, the span ends when that signal fires even if `work` never settles (a 2026-07-28 call that asks the
 * client ends there, its handler left waiting); a `TimeoutError` reason is recorded as the span's failure.
 */
export type RunInSpan = <T>(
  name: string,
  attributes: SpanAttributes,
  work: () => Promise<T>,
  stopped?: AbortSignal,
) => Promise<T>;

/**
 * Tracing as the server's request path sees it: nothing here imports OpenTelemetry, so the core stays free of it and
 * a function without tracing loads none of it. The implementation (`otel.ts`) is a chunk of its own.
 */
export interface Telemetry {
  readonly mode: Exclude<TracingMode, 'off'>;
  /** Each MCP request inside its server span (`on`), or inside the trace context it carries (`propagation`). */
  traced(dispatch: Dispatch, names: TracedNames): Dispatch;
  /**
   * An HTTP request that is not MCP (the authorization bridge's) inside a server span `{method} {route}` under
   * Lambda's trace (`on`), or in Lambda's trace context (`propagation`). `route` is one of the server's own paths,
   * or undefined for any other (a path a client made up is never recorded).
   */
  served<T extends { status: number }>(
    request: { method: string; route: string | undefined },
    work: () => Promise<T>,
  ): Promise<T>;
  /** A child span of the current one (`on`); the work as it is otherwise. */
  span: RunInSpan;
  /** Captures an AWS SDK client: a client span per call (`on`), recording the bucket, table or function only. */
  instrument: InstrumentClient;
  /**
   * The current context as W3C fields (`traceparent`, `tracestate`, `baggage`) for a payload this request sends on
   * (a task job, a companion request): empty outside a traced request.
   */
  carrier(): Record<string, string>;
  /**
   * Work another function sent (a task run, a companion read), continued in the context its payload carries: a
   * consumer span `name` under it (`on`), the context alone (`propagation`); spans sent when the work ends, within
   * `timeoutMs` of it.
   */
  continued<T>(carrier: unknown, name: string, work: () => Promise<T>, timeoutMs: () => number): Promise<T>;
  /** `trace_id` and `span_id` of the current context for a log line; undefined outside a traced request. */
  logFields(): { trace_id: string; span_id: string } | undefined;
  /** The transport, flushing what was recorded before each invocation returns (and before it freezes). */
  flushing<Handle extends Transport>(handle: Handle): Handle;
  /** Sends what was recorded, giving up after `timeoutMs`. */
  flush(timeoutMs: number): Promise<void>;
}

/**
 * The names a request may put in a span's name or a low-cardinality attribute: only those the server has (a
 * client's made-up tool name must not become a span name).
 */
export interface TracedNames {
  isTool(name: string): boolean;
  isPrompt(name: string): boolean;
  /** Whether a URI is one of the server's views (`ui://`): the only resource URIs a span records. */
  isView(uri: string): boolean;
}

/**
 * A payload another function sent, split into the trace context it carries (`trace`, put there by the task launcher
 * or the companion client when tracing is on) and the request itself, as its contract reads it.
 */
export function tracedPayload(event: unknown): { trace: unknown; payload: unknown } {
  if (typeof event !== 'object' || event === null || !('trace' in event))
    return { trace: undefined, payload: event };
  const { trace, ...payload } = event as { trace: unknown };
  return { trace, payload };
}

/** Each tool's handler run inside a span of its own (`execute_tool <name>`), when tracing records spans. */
export function spannedTools<Tool extends { name: string; handler: (...args: never[]) => unknown }>(
  tools: readonly Tool[],
  runInSpan: RunInSpan | undefined,
): Tool[] {
  if (!runInSpan) return [...tools];
  return tools.map((tool) => ({
    ...tool,
    handler: (...args: Parameters<Tool['handler']>) =>
      runInSpan(
        `execute_tool ${tool.name}`,
        { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool.name },
        async () => tool.handler(...args),
        // The call's signal (the handler's second argument): it fires when the call ends without its handler.
        (args[1] as { signal?: AbortSignal } | undefined)?.signal,
      ),
  }));
}
