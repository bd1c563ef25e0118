import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { OutboundSpans } from '../outbound.ts';
import { parentage } from './parents.ts';
import type { Telemetry } from './telemetry.ts';
import { recordFailure } from './failures.ts';

/** Spans by the OpenTelemetry HTTP conventions: the bridge's requests (server) and outbound calls (client). */

/** HTTP methods a span may name; any other is `_OTHER` (the HTTP conventions' rule: a method can be made up). */
const HTTP_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

/** A server span per HTTP request by the HTTP conventions, under Lambda's trace: the status and a 5xx recorded. */
export const servedSpans =
  (tracer: Tracer, lambdaHeader: () => string | undefined): Telemetry['served'] =>
  ({ method, route }, work) => {
    const { parent, links } = parentage(undefined, lambdaHeader());
    const known = HTTP_METHODS.has(method) ? method : '_OTHER';
    const attributes = { 'http.request.method': known, ...(route ? { 'http.route': route } : {}) };
    const name = route ? `${known} ${route}` : known;
    const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
    return context.with(trace.setSpan(parent, span), async () => {
      try {
        const response = await work();
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 500) {
          span.setAttribute('error.type', String(response.status));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return response;
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    });
  };

/**
 * A client span per outbound HTTP call by the HTTP conventions (`GET`, `http.request.method`, `server.address`,
 * `server.port`, `http.response.status_code`): where it went, never its path or query (a client's metadata URL is
 * its own choice).
 */
export const outboundSpans =
  (tracer: Tracer): OutboundSpans =>
  (request, work) => {
    const url = URL.canParse(request.url) ? new URL(request.url) : undefined;
    const method = HTTP_METHODS.has(request.method) ? request.method : '_OTHER';
    const attributes = {
      'http.request.method': method,
      ...(url
        ? {
            'server.address': url.hostname,
            'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
            'url.scheme': url.protocol.slice(0, -1),
          }
        : {}),
    };
    return tracer.startActiveSpan(method, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        const result = await work();
        const { status, errorType } = (result ?? {}) as { status?: unknown; errorType?: unknown };
        if (typeof status === 'number') span.setAttribute('http.response.status_code', status);
        // A client span fails on any 4xx or 5xx (HTTP conventions), or when the call says why it failed.
        const failure =
          typeof errorType === 'string'
            ? errorType
            : typeof status === 'number' && status >= 400
              ? String(status)
              : '';
        if (failure) {
          span.setAttribute('error.type', failure);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        return result;
      } catch (error) {
        recordFailure(span, error, true);
        throw error;
      } finally {
        span.end();
      }
    });
  };
