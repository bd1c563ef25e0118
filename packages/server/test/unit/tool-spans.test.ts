import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import { loadTelemetry } from '../../src/telemetry/loader.ts';
import { spannedTools, type Telemetry } from '../../src/telemetry/telemetry.ts';

/**
 * A tool's `execute_tool` span ends with its call, even when the handler never returns: a 2026-07-28 call that
 * asks the client ends its round with the handler left waiting, and a call out of time ends before its handler.
 */
describe('the span of a tool handler', () => {
  let receiver: Awaited<ReturnType<typeof import('@mcp-lambda/dev/testing').startOtlpReceiver>>;
  let telemetry: Telemetry;
  beforeAll(async () => {
    const { startOtlpReceiver } = await import('@mcp-lambda/dev/testing');
    receiver = await startOtlpReceiver();
    telemetry = await loadTelemetry({
      mode: 'on',
      serviceName: 'tool-spans',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      log: silentLogger,
    });
  });
  afterAll(() => receiver.close());

  /** Runs a handler that never settles under a span, stops its call with `reason`, and returns the span sent. */
  async function stoppedBy(name: string, reason: DOMException) {
    const controller = new AbortController();
    const [tool] = spannedTools(
      [
        {
          name,
          handler: (_args: unknown, _ctx: { signal: AbortSignal }) => new Promise<never>(() => undefined),
        },
      ],
      telemetry.span,
    );
    void tool!.handler({}, { signal: controller.signal });
    controller.abort(reason);
    await telemetry.flush(10_000);
    return receiver.spans.find((s) => s.name === `execute_tool ${name}`);
  }

  it('ends, not failed, when the call stops to ask the client or is cancelled', async () => {
    const asked = await stoppedBy('asks', new DOMException('asks the client', 'AbortError'));
    expect(asked).toMatchObject({ attributes: { 'gen_ai.tool.name': 'asks' }, status: { code: 0 } });
  });

  it('ends as failed, by the error name only, when the call runs out of time', async () => {
    const late = await stoppedBy('late', new DOMException('time budget exhausted', 'TimeoutError'));
    expect(late?.status).toEqual({ code: 2, message: 'TimeoutError' });
  });

  it('ends once when the handler returns after its call stopped, and when it returns in time', async () => {
    const controller = new AbortController();
    let finish!: () => void;
    const [tool] = spannedTools(
      [
        {
          name: 'slow',
          handler: (_args: unknown, _ctx: { signal: AbortSignal }) => new Promise<void>((r) => (finish = r)),
        },
      ],
      telemetry.span,
    );
    const running = tool!.handler({}, { signal: controller.signal });
    controller.abort(new DOMException('cancelled', 'AbortError'));
    finish();
    await running;
    const [fast] = spannedTools([{ name: 'fast', handler: async () => 'done' }], telemetry.span);
    expect(await fast!.handler()).toBe('done');
    await telemetry.flush(10_000);
    const names = receiver.spans.map((s) => s.name);
    expect(names.filter((n) => n === 'execute_tool slow')).toHaveLength(1);
    expect(names.filter((n) => n === 'execute_tool fast')).toHaveLength(1);
  });
});
