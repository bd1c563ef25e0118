import { describe, expect, it } from 'vitest';
import { jsonLogger } from '../../src/log.ts';
import { loadTelemetry } from '../../src/telemetry/loader.ts';
import { tracedPayload } from '../../src/telemetry/telemetry.ts';
import { spanTrees } from '../../src/telemetry/console-exporter.ts';
import { keyValues, otlpSettings, samplerSetting } from '../../src/telemetry/otlp-settings.ts';
import { extractCarrier, lambdaTraceContext, parentage, w3cPropagator } from '../../src/telemetry/parents.ts';
import { defaultTextMapSetter, propagation, SpanKind, trace } from '@opentelemetry/api';
import type { Dispatch } from '../../src/dispatcher.ts';
import { silentLogger } from '../../src/log.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const XRAY = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';

describe('where a request span hangs', () => {
  it('reads W3C trace context from params._meta, ignoring anything that is not a valid traceparent', () => {
    const context = extractCarrier({
      traceparent: `00-${TRACE}-${SPAN}-01`,
      tracestate: 'rojo=00f067aa0ba902b7',
    });
    expect(trace.getSpanContext(context)).toMatchObject({ traceId: TRACE, spanId: SPAN, traceFlags: 1 });
    for (const bad of [
      { traceparent: 'nonsense' },
      { traceparent: 7 },
      'text',
      null,
      [],
      { traceparent: `00-${'0'.repeat(32)}-${SPAN}-01` },
    ])
      expect(trace.getSpanContext(extractCarrier(bad))).toBeUndefined();
    // Flags beyond "sampled" are dropped: passed on, they would come out as three hex digits.
    for (const [flags, kept] of [
      ['ff', 1],
      ['10', 0],
      ['03', 1],
    ] as const) {
      const read = extractCarrier({ traceparent: `00-${TRACE}-${SPAN}-${flags}` });
      expect(trace.getSpanContext(read)?.traceFlags).toBe(kept);
      const carrier: Record<string, string> = {};
      w3cPropagator.inject(read, carrier, defaultTextMapSetter);
      expect(carrier.traceparent).toBe(`00-${TRACE}-${SPAN}-0${kept}`);
    }
  });

  it('reads no field longer than W3C allows, before any parsing', () => {
    // Members of 4,000 characters (W3C's member limit is 4,096), up to the 8,192 of the whole.
    const baggage = (chars: number) => {
      const members = ['a', 'b', 'c'].map((k) => `${k}=${'v'.repeat(3_999)}`).join(',');
      return members.slice(0, chars);
    };
    const read = (carrier: Record<string, string>) => propagation.getBaggage(extractCarrier(carrier));
    expect(read({ baggage: baggage(8_192) })?.getEntry('b')).toBeDefined();
    expect(read({ baggage: baggage(8_193) })).toBeUndefined();
    expect(read({ baggage: 'a=%,'.repeat(250_000) })).toBeUndefined();
    const long = `00-${TRACE}-${SPAN}-01${' '.repeat(300)}`;
    expect(trace.getSpanContext(extractCarrier({ traceparent: long }))).toBeUndefined();
  });

  it('splits a payload into the trace context it carries and the request its contract reads', () => {
    expect(tracedPayload({ version: 1, uri: 'x', trace: { traceparent: 't' } })).toEqual({
      trace: { traceparent: 't' },
      payload: { version: 1, uri: 'x' },
    });
    expect(tracedPayload({ version: 1 })).toEqual({ trace: undefined, payload: { version: 1 } });
    expect(tracedPayload('text')).toEqual({ trace: undefined, payload: 'text' });
  });

  it("reads Lambda's X-Ray header as the AWS propagator does", () => {
    expect(lambdaTraceContext(XRAY)).toEqual({
      traceId: '5759e988bd862e3fe1be46a994272793',
      spanId: '53995c3f42cd8ad8',
      traceFlags: 1,
      isRemote: true,
    });
    expect(lambdaTraceContext(XRAY.replace('Sampled=1', 'Sampled=0'))?.traceFlags).toBe(0);
    for (const bad of [
      undefined,
      '',
      'Root=1-5759e988-bd86;Parent=53995c3f42cd8ad8',
      'Parent=53995c3f42cd8ad8',
    ])
      expect(lambdaTraceContext(bad)).toBeUndefined();
  });

  it("takes the client's _meta context as parent and links Lambda's trace; without it, continues Lambda's trace when sampled", () => {
    const withMeta = parentage({ traceparent: `00-${TRACE}-${SPAN}-01` }, XRAY);
    expect(trace.getSpanContext(withMeta.parent)?.traceId).toBe(TRACE);
    expect(withMeta.links.map((l) => l.context.traceId)).toEqual(['5759e988bd862e3fe1be46a994272793']);
    const lambdaOnly = parentage({}, XRAY);
    expect(trace.getSpanContext(lambdaOnly.parent)?.traceId).toBe('5759e988bd862e3fe1be46a994272793');
    expect(lambdaOnly.links).toEqual([]);
    const unsampled = parentage(undefined, XRAY.replace('Sampled=1', 'Sampled=0'));
    expect(trace.getSpanContext(unsampled.parent)).toBeUndefined();
    expect(unsampled.links).toHaveLength(1);
  });

  it('takes the HTTP traceparent header next: after _meta, before Lambda; an invalid or over-long one is ignored', () => {
    const other = 'aaaabbbbccccddddeeeeffff00001111';
    const header = { traceparent: `00-${other}-${SPAN}-01` };
    const fromHeader = parentage({}, XRAY, header);
    expect(trace.getSpanContext(fromHeader.parent)?.traceId).toBe(other);
    expect(fromHeader.links.map((l) => l.context.traceId)).toEqual(['5759e988bd862e3fe1be46a994272793']);
    expect(
      trace.getSpanContext(parentage({ traceparent: `00-${TRACE}-${SPAN}-01` }, XRAY, header).parent)
        ?.traceId,
    ).toBe(TRACE);
    for (const bad of ['nonsense', `00-${other}-${SPAN}-01${' '.repeat(300)}`])
      expect(trace.getSpanContext(parentage({}, XRAY, { traceparent: bad }).parent)?.traceId).toBe(
        '5759e988bd862e3fe1be46a994272793',
      );
  });
});

describe('the OTEL_* settings', () => {
  it('reads the endpoint, protocol, headers and timeout, the traces-specific variables first', () => {
    expect(otlpSettings({})).toEqual({
      url: 'http://localhost:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
    });
    expect(
      otlpSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example/',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-team=mcp%20tools, x-key = abc',
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500',
      }),
    ).toEqual({
      url: 'https://collector.example/v1/traces',
      protocol: 'http/json',
      headers: { 'x-team': 'mcp tools', 'x-key': 'abc' },
      timeoutMs: 2_500,
    });
    expect(
      otlpSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/custom',
      }).url,
    ).toBe('https://traces.example/custom');
  });

  it('refuses what it cannot honour, naming the variable and never a header value', () => {
    expect(() => otlpSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example' })).toThrow(
      /https, or http on this host/,
    );
    expect(() => otlpSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(() => otlpSettings({ OTEL_EXPORTER_OTLP_TIMEOUT: '0' })).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT/);
    expect(() => keyValues('authorization=Bearer%zz-secret', 'OTEL_EXPORTER_OTLP_HEADERS')).toThrow(
      /^Configuration: OTEL_EXPORTER_OTLP_HEADERS has a value that is not percent-encoded correctly$/,
    );
    // A value Node would refuse to send (beyond Latin-1) fails here, once, not on every export.
    expect(() => otlpSettings({ OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%E2%82%AC' })).toThrow(
      /^Configuration: OTEL_EXPORTER_OTLP_HEADERS has an invalid header \("x-api-key"\)$/,
    );
    expect(() => samplerSetting({ OTEL_TRACES_SAMPLER: 'xray' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() =>
      samplerSetting({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }),
    ).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(samplerSetting({})).toEqual({ name: 'parentbased_always_on', ratio: 1 });
  });
});

describe('MCP_TRACING=propagation', () => {
  it("runs each request in the client's context: log lines carry its ids and calls onward carry it, no span recorded", async () => {
    const telemetry = await loadTelemetry({
      mode: 'propagation',
      serviceName: 'p',
      env: {},
      log: silentLogger,
    });
    const lines: string[] = [];
    const log = jsonLogger({
      serviceName: 'p',
      level: 'INFO',
      write: (_l, line) => lines.push(line),
      traceFields: telemetry.logFields,
    });
    let carried: Record<string, string> = {};
    const dispatch: Dispatch = async (request) => {
      log.info('inside');
      carried = telemetry.carrier();
      return { response: { jsonrpc: '2.0', id: request.id, result: {} }, notifications: [] };
    };
    const traced = telemetry.traced(dispatch, {
      isTool: () => true,
      isPrompt: () => true,
      isView: () => true,
    });
    const meta = { traceparent: `00-${TRACE}-${SPAN}-01`, baggage: 'tenant=blue' };
    const outcome = await traced(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } },
      {} as never,
    );
    // The request's own log line, written after it and outside its context, carries the ids too.
    expect(outcome.audit).toEqual({ trace_id: TRACE, span_id: SPAN });
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: 'inside', trace_id: TRACE, span_id: SPAN });
    expect(carried).toEqual(meta);
    log.info('outside');
    expect(JSON.parse(lines[1]!)).not.toHaveProperty('trace_id');
    expect(telemetry.carrier()).toEqual({});
  });
});

describe('MCP_TRACING=console', () => {
  it('prints each trace as a tree, children under their parent', () => {
    const span = (id: string, parent: string | undefined, name: string, start: number) =>
      ({
        name,
        kind: parent ? SpanKind.INTERNAL : SpanKind.SERVER,
        spanContext: () => ({ traceId: TRACE, spanId: id, traceFlags: 1 }),
        ...(parent ? { parentSpanContext: { traceId: TRACE, spanId: parent, traceFlags: 1 } } : {}),
        startTime: [start, 0],
        duration: [0, 1_500_000],
        attributes: name.startsWith('S3') ? { 'aws.s3.bucket': 'outputs' } : {},
        status: { code: name === 'tools/call large' ? 2 : 0 },
      }) as never;
    const text = spanTrees([
      span('b', 'a', 'execute_tool large', 2),
      span('c', 'a', 'S3.PutObject', 3),
      span('a', undefined, 'tools/call large', 1),
    ]);
    expect(text).toBe(
      [
        `trace ${TRACE}`,
        '└─ tools/call large  server  1.5 ms  ERROR',
        '   ├─ execute_tool large  internal  1.5 ms',
        '   └─ S3.PutObject  internal  1.5 ms  aws.s3.bucket=outputs',
      ].join('\n'),
    );
  });
});

describe('MCP_TRACING=on, flushing', () => {
  it('sends the spans of an invocation that throws before the error leaves it', async () => {
    const { startOtlpReceiver } = await import('@mcp-lambda/dev/testing');
    const receiver = await startOtlpReceiver();
    try {
      const telemetry = await loadTelemetry({
        mode: 'on',
        serviceName: 'thrower',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        log: silentLogger,
      });
      const handle = telemetry.flushing(async () => {
        await telemetry.span('doomed work', {}, async () => undefined);
        throw new Error('boom');
      });
      const invoke = handle as unknown as (req: unknown, ctx: unknown) => Promise<unknown>;
      await expect(invoke({}, { deadline: Date.now() + 30_000 })).rejects.toThrow('boom');
      // Already sent when the error left the invocation: no waiting here.
      expect(receiver.spans.map((s) => s.name)).toContain('doomed work');
    } finally {
      await receiver.close();
    }
  });
});
