/**
 * Outbound HTTP calls (an issuer's keys and metadata, a client's metadata document, a token endpoint) as client
 * spans when tracing records spans, with no OpenTelemetry import here: the tracing chunk registers how spans are
 * made (`recordOutboundCalls`), and until it does (MCP_TRACING off or `propagation`) a call runs as it is.
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
