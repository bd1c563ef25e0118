import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

const KINDS: Record<SpanKind, string> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/** The attributes worth a glance, in a tree line (the rest are in an OTLP backend's view of the same span). */
const SHOWN = [
  'mcp.session.id',
  'jsonrpc.request.id',
  'error.type',
  'aws.s3.bucket',
  'aws.dynamodb.table_names',
  'faas.invoked_name',
];

function line(span: ReadableSpan): string {
  const ms = hrTimeToMilliseconds(span.duration).toFixed(1);
  const shown = SHOWN.filter((key) => span.attributes[key] !== undefined).map(
    // Control characters of a client's value (a request id) shown as `?`: one span, one line.
    (key) => `${key}=${String(span.attributes[key]).replace(/[\x00-\x1f\x7f]/g, '?')}`,
  );
  const error = span.status.code === SpanStatusCode.ERROR ? ['ERROR'] : [];
  return [span.name, KINDS[span.kind], `${ms} ms`, ...error, ...shown].join('  ');
}

/** The spans of one batch as trees, one per trace: children under their parent, in the order they started. */
export function spanTrees(spans: readonly ReadableSpan[]): string {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const children = new Map<string, ReadableSpan[]>();
  const roots: ReadableSpan[] = [];
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    if (parent && byId.has(parent)) children.set(parent, [...(children.get(parent) ?? []), span]);
    else roots.push(span);
  }
  const started = (a: ReadableSpan, b: ReadableSpan) =>
    hrTimeToMilliseconds(a.startTime) - hrTimeToMilliseconds(b.startTime);
  const out: string[] = [];
  const walk = (span: ReadableSpan, indent: string, last: boolean) => {
    out.push(`${indent}${last ? '└─ ' : '├─ '}${line(span)}`);
    const kids = (children.get(span.spanContext().spanId) ?? []).sort(started);
    kids.forEach((kid, i) => walk(kid, `${indent}${last ? '   ' : '│  '}`, i === kids.length - 1));
  };
  for (const root of roots.sort(started)) {
    const { traceId } = root.spanContext();
    const parent = root.parentSpanContext ? ` (continues span ${root.parentSpanContext.spanId})` : '';
    out.push(`trace ${traceId}${parent}`);
    walk(root, '', true);
  }
  return out.join('\n');
}

/**
 * `MCP_TRACING=console`: each flushed batch printed as span trees on stderr (local development: the spans a
 * request makes, without running a backend). Writes nothing else; never fails.
 */
export class ConsoleTreeExporter implements SpanExporter {
  constructor(private readonly write: (text: string) => void = (text) => process.stderr.write(text)) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (spans.length) this.write(`${spanTrees(spans)}\n`);
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {}

  async forceFlush(): Promise<void> {}
}
