import { SpanStatusCode, type Span } from '@opentelemetry/api';

/**
 * A span's failure by the conventions: status ERROR described by the error's name, never its message (which may
 * quote an argument or a key); with `errorType`, the name as `error.type` too (client spans: AWS and HTTP calls).
 */
export function recordFailure(span: Span, error: unknown, errorType = false): void {
  const name = error instanceof Error ? error.name : 'Error';
  if (errorType) span.setAttribute('error.type', name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: name });
}
