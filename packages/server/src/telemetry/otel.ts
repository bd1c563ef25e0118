import {
  context,
  isSpanContextValid,
  SpanKind,
  trace,
  type Context,
  type Link,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { Env } from '../config-values.ts';
import type { Transport } from '../http/transport.ts';
import type { HttpRequest, StreamingInvocationContext } from '../wire/types.ts';
import type { Logger } from '../log.ts';
import { awsClientSpans } from './aws-spans.ts';
import { ConsoleTreeExporter } from './console-exporter.ts';
import { propagatedDispatch, spannedDispatch } from './mcp-spans.ts';
import { OtlpHttpExporter } from './otlp-exporter.ts';
import { outboundSpans, servedSpans } from './http-spans.ts';
import { carryTraceContext, recordOutboundCalls } from '../outbound.ts';
import { injectCarrier, parentage } from './parents.ts';
import { keyValues, otlpSettings, samplerSetting, type SamplerSetting } from './otlp-settings.ts';
import type { RunInSpan, Telemetry } from './telemetry.ts';
import { recordFailure } from './failures.ts';

/** What a function's telemetry is made from. */
export interface TelemetryOptions {
  mode: Telemetry['mode'];
  /** `service.name` unless `OTEL_SERVICE_NAME` says otherwise. */
  serviceName: string;
  env: Env;
  log: Logger;
}

/** Time kept back from the invocation's deadline when spans are flushed at its end, ms. */
const FLUSH_RESERVE_MS = 250;
/**
 * Longest an invocation waits for its spans to be sent, ms: a slow or unreachable endpoint delays each answer by at
 * most this (then the export goes on, and ends by its own time limit, while the function is not frozen).
 */
const FLUSH_MAX_MS = 2_000;

function sampler({ name, ratio }: SamplerSetting): Sampler {
  const root = name.endsWith('always_off')
    ? new AlwaysOffSampler()
    : name.endsWith('traceidratio')
      ? new TraceIdRatioBasedSampler(ratio)
      : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** The function's tracer provider: its resource, sampler and a batch of spans sent at each invocation's end. */
function tracerProvider({ mode, serviceName, env, log }: TelemetryOptions): TracerProvider {
  const exporter: SpanExporter =
    mode === 'console' ? new ConsoleTreeExporter() : new OtlpHttpExporter(otlpSettings(env), log, env);
  const resource = resourceFromAttributes({
    ...keyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES'),
    'service.name': env.OTEL_SERVICE_NAME?.trim() || serviceName,
    ...(env.AWS_LAMBDA_FUNCTION_NAME
      ? { 'cloud.provider': 'aws', 'cloud.platform': 'aws_lambda', 'faas.name': env.AWS_LAMBDA_FUNCTION_NAME }
      : {}),
    ...(env.AWS_LAMBDA_FUNCTION_VERSION ? { 'faas.version': env.AWS_LAMBDA_FUNCTION_VERSION } : {}),
    ...(env.AWS_REGION ? { 'cloud.region': env.AWS_REGION } : {}),
  });
  return new TracerProvider({
    resource,
    sampler: sampler(samplerSetting(env)),
    // Spans wait for the invocation's end (`flushing`), not for a timer a frozen function would never run.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: 60_000,
        maxExportBatchSize: 512,
        maxQueueSize: 4096,
      }),
    ],
  });
}

/**
 * A span around `work`, a child of the current context (or of `parent`): its failure recorded by the error's name
 * (a message may quote an argument). With `stopped`, it ends when the signal fires, whether or not `work` settles.
 */
const childSpans =
  (tracer: Tracer, kind = SpanKind.INTERNAL, parent?: Context, links: Link[] = []): RunInSpan =>
  (name, attributes, work, stopped) =>
    tracer.startActiveSpan(name, { kind, attributes, links }, parent ?? context.active(), async (span) => {
      const onStop = () => {
        // Running out of time is a failure; asking the client or being cancelled is not.
        if ((stopped?.reason as Error | undefined)?.name === 'TimeoutError')
          recordFailure(span, stopped?.reason);
        span.end();
      };
      if (stopped?.aborted) onStop();
      else stopped?.addEventListener('abort', onStop, { once: true });
      try {
        return await work();
      } catch (error) {
        if (!stopped?.aborted) recordFailure(span, error);
        throw error;
      } finally {
        stopped?.removeEventListener('abort', onStop);
        if (!stopped?.aborted) span.end();
      }
    });

/** Waits for `flush`, at most `timeoutMs`. */
async function bounded(flush: () => Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, timeoutMs))));
  try {
    // A failed export costs its spans (the exporter logs it), never the invocation.
    await Promise.race([flush().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The transport, each invocation's spans sent before its answer returns (a streamed answer: when it ends). */
function flushingTransport<Handle extends Transport>(
  handle: Handle,
  flush: (timeoutMs: number) => Promise<void>,
): Handle {
  const flushed = async (req: HttpRequest, ctx: StreamingInvocationContext) => {
    const timeoutMs = () =>
      Math.min(
        FLUSH_MAX_MS,
        ctx.deadline !== undefined ? ctx.deadline - Date.now() - FLUSH_RESERVE_MS : FLUSH_MAX_MS,
      );
    const response = await handle(req, ctx).catch(async (error: unknown) => {
      // The spans of a request that failed are the ones most worth having.
      await flush(timeoutMs());
      throw error;
    });
    if (typeof response.body === 'string') {
      await flush(timeoutMs());
      return response;
    }
    const body = response.body;
    return {
      ...response,
      body: (async function* () {
        try {
          yield* body;
        } finally {
          await flush(timeoutMs());
        }
      })(),
    };
  };
  return flushed as unknown as Handle;
}

/**
 * OpenTelemetry for a function (MCP_TRACING `on`, `console` or `propagation`): this module and the SDK load only
 * then. The context manager makes a request's context current across its awaits; with spans, the provider is
 * registered globally too, so an app's own `trace.getTracer(…)` spans join the request's trace and are sent with it.
 */
export function openTelemetry(options: TelemetryOptions): Telemetry {
  const { mode, log } = options;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // The questions a call asks a client carry its trace context (`_meta`), in both modes.
  carryTraceContext(injectCarrier);
  const lambdaHeader = () => process.env._X_AMZN_TRACE_ID;
  const logFields = () => {
    const span = trace.getSpanContext(context.active());
    return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
  };
  if (mode === 'propagation')
    return {
      mode,
      traced: (dispatch) => propagatedDispatch(dispatch, lambdaHeader),
      served: (_request, work) => context.with(parentage(undefined, lambdaHeader()).parent, work),
      span: (_name, _attributes, work) => work(),
      instrument: (client) => client,
      carrier: injectCarrier,
      continued: (carrier, _name, work) => context.with(parentage(carrier, lambdaHeader()).parent, work),
      logFields,
      flushing: (handle) => handle,
      flush: async () => {},
    };
  const provider = tracerProvider(options);
  if (!trace.setGlobalTracerProvider(provider))
    log.warn('a tracer provider was registered before this one: app spans go to it, not with the MCP spans');
  const tracer = provider.getTracer('@mcp-lambda/server');
  recordOutboundCalls(outboundSpans(tracer));
  const flush = (timeoutMs: number) => bounded(() => provider.forceFlush(), timeoutMs);
  return {
    mode,
    traced: (dispatch, names) => spannedDispatch(dispatch, tracer, names, lambdaHeader),
    served: servedSpans(tracer, lambdaHeader),
    span: childSpans(tracer),
    instrument: awsClientSpans(tracer),
    carrier: injectCarrier,
    continued: async (carrier, name, work, timeoutMs) => {
      const { parent, links } = parentage(carrier, lambdaHeader());
      try {
        return await childSpans(tracer, SpanKind.CONSUMER, parent, links)(name, {}, work);
      } finally {
        await flush(Math.min(FLUSH_MAX_MS, timeoutMs()));
      }
    },
    logFields,
    flushing: (handle) => flushingTransport(handle, flush),
    flush,
  };
}
