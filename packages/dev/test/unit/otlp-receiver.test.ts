import { gzipSync } from 'node:zlib';
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Link } from '@opentelemetry/api';
import { CompressionAlgorithm, OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  TraceExporterMetricsHelper,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../src/testing/otlp.ts';

/**
 * The OTLP trace receiver, fed what the OpenTelemetry SDK's own OTLP/HTTP exporter sends (built from the parts
 * `@opentelemetry/exporter-trace-otlp-proto` is made of), in protobuf and in OTLP/JSON: every field of every span
 * comes back as it was recorded.
 */

type Encoding = ReceivedSpan['encoding'];

const CONTENT_TYPES: Record<Encoding, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};
const SERIALIZERS = { protobuf: ProtobufTraceSerializer, json: JsonTraceSerializer };

const SERVICE = 'otlp-receiver-test';
const SCOPE = 'orders-instrumentation';
/** Attribute values of every kind: non-ASCII text, negative and 40-bit integers, doubles, a boolean, arrays. */
const CHILD_ATTRIBUTES = {
  'db.system': 'postgresql',
  'db.statement.note': 'café ☕',
  'db.rows': 42,
  'db.offset': -7,
  'db.bytes': 2 ** 40,
  'db.ratio': 0.25,
  'cache.hit': false,
  'db.tables': ['orders', 'customers'],
  'db.delays': [1.5, 2.5],
} satisfies Attributes;
const LINK: Link = {
  context: { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 },
  attributes: { 'link.reason': 'batch' },
};

/** The SDK's OTLP/HTTP exporter for Node.js, in the given encoding, sending to the receiver. */
function otlpExporter(url: string, encoding: Encoding, compression: CompressionAlgorithm): SpanExporter {
  const options = convertLegacyHttpOptions({ url: `${url}/v1/traces`, compression }, 'TRACES', 'v1/traces', {
    'Content-Type': CONTENT_TYPES[encoding],
  });
  const delegate = createOtlpHttpExportDelegate(
    options,
    SERIALIZERS[encoding],
    'otlp_http_span_exporter',
    TraceExporterMetricsHelper,
    undefined,
  );
  return new OTLPExporterBase<ReadableSpan[]>(delegate);
}

/**
 * Records a SERVER span and a CLIENT child of it (attributes, an event, a link, an error status; its times given),
 * sends each to `exporters` as it ends, and returns the two as the SDK recorded them: [parent, child].
 */
async function recordTrace(exporters: SpanExporter[]): Promise<[ReadableSpan, ReadableSpan]> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': SERVICE }),
    spanProcessors: [memory, ...exporters].map((exporter) => new SimpleSpanProcessor({ exporter })),
  });
  const tracer = provider.getTracer(SCOPE, '1.2.3');
  const parent = tracer.startSpan('GET /orders', {
    kind: SpanKind.SERVER,
    attributes: { 'http.route': '/orders' },
  });
  const child = tracer.startSpan(
    'SELECT orders',
    {
      kind: SpanKind.CLIENT,
      attributes: CHILD_ATTRIBUTES,
      links: [LINK],
      startTime: [1_700_000_000, 123_456_789],
    },
    trace.setSpan(context.active(), parent),
  );
  child.addEvent('retry', { 'retry.attempt': 2 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream failed' });
  child.end([1_700_000_001, 5]);
  parent.end();
  await provider.forceFlush();
  const [recordedChild, recordedParent] = memory.getFinishedSpans();
  await provider.shutdown();
  return [recordedParent!, recordedChild!];
}

/** What the receiver should decode from the two spans of recordTrace. */
function expected(parent: ReadableSpan, child: ReadableSpan, encoding: Encoding) {
  const { traceId, spanId: parentSpanId } = parent.spanContext();
  const common = { traceId, resource: { 'service.name': SERVICE }, scope: SCOPE, encoding };
  return {
    parent: {
      ...common,
      spanId: parentSpanId,
      parentSpanId: '',
      name: 'GET /orders',
      kind: 2,
      attributes: { 'http.route': '/orders' },
      status: { code: 0, message: '' },
      links: [],
      events: [],
    },
    child: {
      ...common,
      spanId: child.spanContext().spanId,
      parentSpanId,
      name: 'SELECT orders',
      kind: 3,
      startTimeUnixNano: 1_700_000_000_123_456_789n,
      endTimeUnixNano: 1_700_000_001_000_000_005n,
      attributes: CHILD_ATTRIBUTES,
      status: { code: 2, message: 'upstream failed' },
      links: [
        {
          traceId: LINK.context.traceId,
          spanId: LINK.context.spanId,
          attributes: { 'link.reason': 'batch' },
        },
      ],
      events: [{ name: 'retry', attributes: { 'retry.attempt': 2 } }],
    },
  };
}

const ofTrace = (traceId: string) => (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);

/** Posts a body to the receiver's trace path as a client would. */
const post = (
  receiver: OtlpReceiver,
  body: Uint8Array | string,
  headers: Record<string, string>,
  path = '/v1/traces',
) => fetch(`${receiver.url}${path}`, { method: 'POST', headers, body });

describe('the OTLP trace receiver, fed by the OpenTelemetry SDK exporter', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it.each([
    ['protobuf', CompressionAlgorithm.NONE],
    ['json', CompressionAlgorithm.NONE],
    ['protobuf', CompressionAlgorithm.GZIP],
    ['json', CompressionAlgorithm.GZIP],
  ] as const)('decodes every field of a %s export (compression: %s)', async (encoding, compression) => {
    const [parent, child] = await recordTrace([otlpExporter(receiver.url, encoding, compression)]);
    const spans = ofTrace(parent.spanContext().traceId);
    const received = spans(await receiver.waitFor((all) => spans(all).length === 2));
    // Each span is posted as it ends, the child first, but the two posts race: either may arrive first.
    const bySpanId = (id: string) => received.find((s) => s.spanId === id);
    const want = expected(parent, child, encoding);
    expect(bySpanId(child.spanContext().spanId)).toEqual(want.child);
    const { startTimeUnixNano, endTimeUnixNano, ...rest } = bySpanId(parent.spanContext().spanId)!;
    expect(rest).toEqual(want.parent);
    expect(startTimeUnixNano).toBeGreaterThan(0n);
    expect(endTimeUnixNano).toBeGreaterThanOrEqual(startTimeUnixNano);
    expect(receiver.posts.slice(-2)).toEqual(
      Array(2).fill({ path: '/v1/traces', contentType: CONTENT_TYPES[encoding] }),
    );
  });

  it.each(['protobuf', 'json'] as const)(
    "takes a gzip'd %s body and answers as OTLP says",
    async (encoding) => {
      const [parent, child] = await recordTrace([]);
      const body = gzipSync(SERIALIZERS[encoding].serializeRequest([parent, child])!);
      const response = await post(receiver, body, {
        'content-type': CONTENT_TYPES[encoding],
        'content-encoding': 'gzip',
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(CONTENT_TYPES[encoding]);
      expect(await response.text()).toBe(encoding === 'json' ? '{}' : '');
      // One request, one resource, one scope: the spans in the order given.
      const received = ofTrace(parent.spanContext().traceId)(receiver.spans);
      expect(received.map((s) => s.name)).toEqual(['GET /orders', 'SELECT orders']);
      expect(received[1]).toEqual(expected(parent, child, encoding).child);
    },
  );
});

describe('the OTLP trace receiver, given what is no export request', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('refuses a malformed body with 400, and takes the next good one', async () => {
    const bad = [
      ['application/x-protobuf', new Uint8Array([0x0a, 0x05, 0x01])], // a field longer than the body
      ['application/x-protobuf', 'not protobuf'], // wire type 6
      ['application/json', '{"resourceSpans": ['],
      ['application/json', '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "xyz"}]}]}]}'],
    ] as const;
    for (const [type, body] of bad) {
      const response = await post(receiver, body, { 'content-type': type });
      expect(response.status, `${type} ${String(body)}`).toBe(400);
      expect(await response.text()).toMatch(/^not an ExportTraceServiceRequest/);
    }
    const gzipped = await post(receiver, 'not gzip', {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(gzipped.status).toBe(400);
    expect(receiver.spans).toEqual([]);

    const [parent, child] = await recordTrace([]);
    const good = await post(receiver, ProtobufTraceSerializer.serializeRequest([parent, child])!, {
      'content-type': 'application/x-protobuf',
    });
    expect(good.status).toBe(200);
    expect(receiver.spans.map((s) => s.spanId)).toEqual([
      parent.spanContext().spanId,
      child.spanContext().spanId,
    ]);
  });

  it('refuses another content type (415), another path (404), a GET (405) and a body over 8 MB (413)', async () => {
    const wrongType = await post(receiver, '{}', { 'content-type': 'text/plain' });
    expect([wrongType.status, await wrongType.text()]).toEqual([
      415,
      'Content-Type text/plain: application/x-protobuf or application/json',
    ]);
    expect((await post(receiver, '{}', { 'content-type': 'application/json' }, '/v1/metrics')).status).toBe(
      404,
    );
    expect((await fetch(`${receiver.url}/v1/traces`)).status).toBe(405);
    const huge = await post(receiver, new Uint8Array(8 * 1024 * 1024 + 1), {
      'content-type': 'application/x-protobuf',
    });
    expect(huge.status).toBe(413);
    expect(receiver.posts.slice(-3)).toEqual([
      { path: '/v1/traces', contentType: 'text/plain' },
      { path: '/v1/metrics', contentType: 'application/json' },
      { path: '/v1/traces', contentType: 'application/x-protobuf' },
    ]);
  });

  it('reads OTLP/JSON as the specification writes it: int64 as strings, hex ids, enums as integers', async () => {
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'by-hand' } }] },
          scopeSpans: [
            {
              scope: { name: 'hand' },
              spans: [
                {
                  traceId: '5B8EFFF798038103D269B633813FC60C',
                  spanId: 'EEE19B7EC3C1B174',
                  parentSpanId: '',
                  name: 'by hand',
                  kind: 5,
                  startTimeUnixNano: '1544712660000000000',
                  endTimeUnixNano: 1544712661000000000,
                  attributes: [
                    { key: 'big', value: { intValue: '9007199254740993' } },
                    { key: 'small', value: { intValue: '-3' } },
                    {
                      key: 'map',
                      value: { kvlistValue: { values: [{ key: 'a', value: { boolValue: true } }] } },
                    },
                    { key: 'bytes', value: { bytesValue: 'AQID' } },
                    { key: 'nan', value: { doubleValue: 'NaN' } },
                    { key: 'empty', value: {} },
                  ],
                  status: { code: 1 },
                },
              ],
            },
          ],
        },
      ],
    };
    const response = await post(receiver, JSON.stringify(request), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(response.status).toBe(200);
    expect(receiver.spans.at(-1)).toEqual({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b174',
      parentSpanId: '',
      name: 'by hand',
      kind: 5,
      startTimeUnixNano: 1544712660000000000n,
      endTimeUnixNano: 1544712661000000000n,
      attributes: {
        big: 9007199254740993n,
        small: -3,
        map: { a: true },
        bytes: new Uint8Array([1, 2, 3]),
        nan: Number.NaN,
        empty: null,
      },
      status: { code: 1, message: '' },
      links: [],
      events: [],
      resource: { 'service.name': 'by-hand' },
      scope: 'hand',
      encoding: 'json',
    });
  });

  it('waitFor gives up with the names of the spans seen, and when the receiver closes', async () => {
    const own = await startOtlpReceiver();
    const [parent, child] = await recordTrace([]);
    await post(own, JsonTraceSerializer.serializeRequest([parent, child])!, {
      'content-type': 'application/json',
    });
    expect(await own.waitFor((spans) => spans.length === 2)).toHaveLength(2);
    await expect(own.waitFor((spans) => spans.some((s) => s.name === 'never'), 50)).rejects.toThrow(
      'no match within 50 ms; spans seen (2): GET /orders, SELECT orders',
    );
    const pending = own.waitFor(() => false);
    await own.close();
    await expect(pending).rejects.toThrow('the OTLP receiver closed');
  });
});
