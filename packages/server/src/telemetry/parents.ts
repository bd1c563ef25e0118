import {
  context,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type Link,
  type SpanContext,
  type TextMapGetter,
} from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C trace context and baggage, the propagation MCP's `params._meta` carries: this module's own instance, so the
 * server reads and writes the same fields whatever the app registers globally.
 */
const w3cPropagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

/**
 * Longest value read of each field, before any parsing: W3C's own limits with room (a `traceparent` of a later
 * version may be longer than version 00's 55 characters; `tracestate` is propagated up to 512, `baggage` up to
 * 8,192), so a client's megabyte of either costs nothing.
 */
const CARRIER_MAX_CHARS: Record<string, number> = { traceparent: 256, tracestate: 1024, baggage: 8192 };

/** A carrier of W3C trace context as MCP puts it in `params._meta` (and a payload onward): string fields only. */
const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' && value.length <= (CARRIER_MAX_CHARS[key] ?? 0) ? value : undefined;
  },
};

/**
 * The context a carrier holds (`traceparent`, `tracestate`, `baggage`), as the W3C propagators read it: an invalid
 * `traceparent` is ignored, an over-long `tracestate` or `baggage` dropped (their own limits).
 */
export function extractCarrier(carrier: unknown): Context {
  if (typeof carrier !== 'object' || carrier === null || Array.isArray(carrier)) return ROOT_CONTEXT;
  return w3cPropagator.extract(ROOT_CONTEXT, carrier as Record<string, unknown>, metaGetter);
}

const XRAY_HEADER =
  /(?:^|;)\s*Root=1-([0-9a-f]{8})-([0-9a-f]{24})\s*;\s*Parent=([0-9a-f]{16})(?:\s*;\s*Sampled=([01]))?/i;

/**
 * Lambda's own trace (`_X_AMZN_TRACE_ID`, set per invocation: `Root=1-…;Parent=…;Sampled=…`) as a span context, the
 * way the AWS X-Ray propagator reads it; undefined when absent or malformed.
 */
export function lambdaTraceContext(header: string | undefined): SpanContext | undefined {
  const match = header ? XRAY_HEADER.exec(header) : null;
  if (!match) return undefined;
  const [, epoch, unique, parent, sampled] = match;
  return {
    traceId: `${epoch}${unique}`.toLowerCase(),
    spanId: parent!.toLowerCase(),
    traceFlags: sampled === '1' ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  };
}

/** Where a request's server span hangs: its parent context and the other contexts it links to. */
export interface Parentage {
  parent: Context;
  links: Link[];
}

/**
 * The parent of a request's span, by the MCP conventions: the context the client put in `params._meta` (which MCP
 * carries over any transport) comes first; then the HTTP request's `traceparent` header (an instrumented HTTP
 * client's); without either, Lambda's own trace when it is sampled (as the AWS Lambda propagator continues it);
 * else a new trace. Lambda's trace, when it is not the parent, is linked, so the invocation and the MCP request can
 * be found from each other.
 */
export function parentage(
  meta: unknown,
  lambdaHeader: string | undefined,
  httpHeaders?: Readonly<Record<string, string>>,
): Parentage {
  const fromMeta = extractCarrier(meta);
  const lambda = lambdaTraceContext(lambdaHeader);
  if (trace.getSpanContext(fromMeta)) return { parent: fromMeta, links: lambda ? [{ context: lambda }] : [] };
  const fromHttp = httpHeaders ? extractCarrier(httpHeaders) : undefined;
  if (fromHttp && trace.getSpanContext(fromHttp))
    return { parent: fromHttp, links: lambda ? [{ context: lambda }] : [] };
  if (lambda && lambda.traceFlags & TraceFlags.SAMPLED)
    return { parent: trace.setSpanContext(fromMeta, lambda), links: [] };
  return { parent: fromMeta, links: lambda ? [{ context: lambda }] : [] };
}

/** The W3C fields of the current context, for a payload sent on (empty when there is no trace). */
export function injectCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {};
  w3cPropagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier;
}
