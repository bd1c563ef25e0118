import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { loadTelemetry } from '../../src/telemetry/loader.ts';

/** Outbound HTTP calls (an issuer's keys and metadata) as client spans, by the HTTP conventions. */
describe('outbound calls', () => {
  it('records an outbound call as a client span: method, host, port and status, never its path or query', async () => {
    const { startOtlpReceiver } = await import('@mcp-lambda/dev/testing');
    const { fetchJsonObject } = await import('../../src/auth/remote-json.ts');
    const { createServer } = await import('node:http');
    const receiver = await startOtlpReceiver();
    const issuer = createServer((req, res) =>
      res
        .writeHead(req.url?.startsWith('/keys') ? 200 : 404, { 'content-type': 'application/json' })
        .end('{"keys":[]}'),
    );
    await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', () => resolve()));
    const port = (issuer.address() as { port: number }).port;
    try {
      const telemetry = await loadTelemetry({
        mode: 'on',
        serviceName: 'outbound',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        log: silentLogger,
      });
      await telemetry.span('request', {}, async () => {
        await fetchJsonObject(`http://127.0.0.1:${port}/keys/secret-path?token=secret-query`);
        await expect(fetchJsonObject(`http://127.0.0.1:${port}/missing`)).rejects.toThrow(/answered 404/);
      });
      await telemetry.flush(10_000);
      const request = receiver.spans.find((s) => s.name === 'request')!;
      const calls = receiver.spans.filter((s) => s.parentSpanId === request.spanId);
      expect(calls.map((s) => [s.name, s.kind, s.attributes['http.response.status_code']])).toEqual([
        ['GET', 3, 200],
        ['GET', 3, 404],
      ]);
      expect(calls[0]!.attributes).toEqual({
        'http.request.method': 'GET',
        'server.address': '127.0.0.1',
        'server.port': port,
        'url.scheme': 'http',
        'http.response.status_code': 200,
      });
      expect(calls[1]!.attributes['error.type']).toBe('404');
      // A client span fails on a 4xx as on a 5xx (the HTTP conventions).
      expect(calls[1]!.status).toMatchObject({ code: 2 });
      expect(JSON.stringify(receiver.spans.map((s) => s.attributes))).not.toMatch(/secret/);
    } finally {
      issuer.close();
      await receiver.close();
    }
  });

  it('records why a call that reports its own failure failed, with or without a status', async () => {
    const { startOtlpReceiver } = await import('@mcp-lambda/dev/testing');
    const { outboundCall } = await import('../../src/outbound.ts');
    const receiver = await startOtlpReceiver();
    try {
      const telemetry = await loadTelemetry({
        mode: 'on',
        serviceName: 'outbound-failures',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
        log: silentLogger,
      });
      await telemetry.span('request', {}, async () => {
        await outboundCall({ method: 'GET', url: 'https://10.0.0.1/doc' }, async () => ({
          errorType: 'refused_address',
        }));
        await outboundCall({ method: 'GET', url: 'https://example.com/doc' }, async () => ({
          status: 200,
          errorType: 'too_large',
        }));
      });
      await telemetry.flush(10_000);
      const calls = receiver.spans.filter((s) => s.kind === 3);
      expect(
        calls.map((s) => [
          s.attributes['error.type'],
          s.attributes['http.response.status_code'],
          s.status.code,
        ]),
      ).toEqual([
        ['refused_address', undefined, 2],
        ['too_large', 200, 2],
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('the trace context a question carries', () => {
  it('is traceparent and tracestate only, replacing any of the tool own trace fields, never baggage', async () => {
    const { carryTraceContext, tracedParams } = await import('../../src/outbound.ts');
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    carryTraceContext(() => ({ traceparent: parent, tracestate: 'ours=1', baggage: 'tenant=acct-1' }));
    try {
      expect(tracedParams({ message: 'Go?' })).toEqual({
        message: 'Go?',
        _meta: { traceparent: parent, tracestate: 'ours=1' },
      });
      const own = { tracestate: 'tool=1', baggage: 'x=1', 'x/mine': 1 };
      expect(tracedParams({ message: 'Go?', _meta: own })).toEqual({
        message: 'Go?',
        _meta: { 'x/mine': 1, traceparent: parent, tracestate: 'ours=1' },
      });
      // A _meta that is not an object stays as the tool wrote it.
      expect(tracedParams({ message: 'Go?', _meta: 'text' })).toEqual({ message: 'Go?', _meta: 'text' });
      carryTraceContext(() => ({ traceparent: parent }));
      expect(tracedParams({ _meta: { tracestate: 'tool=1' } })).toEqual({ _meta: { traceparent: parent } });
      carryTraceContext(() => ({}));
      expect(tracedParams({ _meta: { tracestate: 'tool=1' } })).toEqual({ _meta: { tracestate: 'tool=1' } });
    } finally {
      carryTraceContext(undefined);
    }
  });
});
