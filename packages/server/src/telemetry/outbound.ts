import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';

/**
 * What leaves the server, traced: outbound HTTP calls (an issuer's keys and metadata, a client's metadata document, a
 * token endpoint) as client spans when tracing records spans, and the questions it asks a client (elicitation,
 * sampling) carrying the current trace context in `_meta`. No OpenTelemetry import here: the tracing chunk registers
 * how (`recordOutboundCalls`, `carryTraceContext`), and until it does (MCP_TRACING off) both pass through untouched.
 */

/** What a span of an outbound call may record: the method and where it goes (never its path, query or body). */
export interface OutboundRequest {
  method: string;
  url: string;
}

/** Runs `work`, the call, inside a client span; the span records `status` when the call's result has one. */
export type OutboundSpans = <T>(request: OutboundRequest, work: () => Promise<T>) => Promise<T>;

let spans: OutboundSpans | undefined;

/** Sets (or, with undefined, clears) how outbound calls are recorded: the tracing chunk calls it when it loads. */
export function recordOutboundCalls(record: OutboundSpans | undefined): void {
  spans = record;
}

/** An outbound HTTP call, inside a client span when tracing records spans. */
export const outboundCall: OutboundSpans = (request, work) => (spans ? spans(request, work) : work());

let carrier: (() => Record<string, string>) | undefined;

/** Sets (or clears) where the current trace context comes from: the tracing chunk calls it when it loads. */
export function carryTraceContext(current: (() => Record<string, string>) | undefined): void {
  carrier = current;
}

/**
 * The params of a request the server sends a client (an ask), with the current trace context added to `_meta`, as
 * MCP carries it, so the client's handling joins the call's trace; the params as they are outside a traced call.
 */
export function tracedParams(params: JSONObject | undefined): JSONObject | undefined {
  const fields = carrier?.() ?? {};
  if (!Object.keys(fields).length) return params;
  const meta = isJsonObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, ...fields } };
}
