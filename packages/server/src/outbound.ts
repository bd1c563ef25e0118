import { isJsonObject } from './protocol/json.ts';
import type { JSONObject } from './protocol/types.ts';

/**
 * What leaves the server, traced: the AWS SDK clients' calls, outbound HTTP calls (an issuer's keys and metadata, a client's metadata document, a
 * token endpoint) as client spans when tracing records spans, and the questions it asks a client (elicitation,
 * sampling) carrying the current trace context in `_meta`. No OpenTelemetry import here: the tracing chunk registers
 * how (`recordOutboundCalls`, `carryTraceContext`), and until it does (MCP_TRACING off) both pass through untouched.
 */

/**
 * Told about each AWS SDK client when it is made, returning the client to use: tracing wraps the client's calls in
 * client spans (recording the bucket, table or function only) and passes the trace context on. The identity when
 * absent.
 */
export type InstrumentClient = <Client extends object>(client: Client) => Client;

/** The client as it is, or as `instrument` returns it. */
export const instrumented = <Client extends object>(
  client: Client,
  instrument: InstrumentClient | undefined,
): Client => (instrument ? instrument(client) : client);

/** What a span of an outbound call may record: the method and where it goes (never its path, query or body). */
export interface OutboundRequest {
  method: string;
  url: string;
}

/**
 * Runs `work`, the call, inside a client span. The span records the result's `status` (an HTTP status) and
 * `errorType` (a fixed word saying why the call failed, never text a remote party chose) when it has them.
 */
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
 * The params of a request the server sends a client (an ask), with the current trace context in `_meta`, as MCP
 * carries it, so the client's handling joins the call's trace; the params as they are outside a traced call.
 * Only `traceparent` and `tracestate` go: baggage may hold the app's own values, which are not the client's to see.
 * Trace fields the tool put in its own `_meta` give way to the call's, all three together (a `tracestate` belongs
 * to its `traceparent`); a `_meta` that is not an object is left as the tool wrote it.
 */
export function tracedParams(params: JSONObject | undefined): JSONObject | undefined {
  const { traceparent, tracestate } = carrier?.() ?? {};
  if (!traceparent) return params;
  if (params?._meta !== undefined && !isJsonObject(params._meta)) return params;
  const { traceparent: _parent, tracestate: _state, baggage: _baggage, ...own } = params?._meta ?? {};
  return { ...params, _meta: { ...own, traceparent, ...(tracestate ? { tracestate } : {}) } };
}
