import { context, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import type { InstrumentClient } from '../outbound.ts';
import type { SpanAttributes } from './telemetry.ts';
import { recordFailure } from './failures.ts';

/** The parts of an AWS SDK v3 client and its middleware this reads (their types are the SDK's, loaded lazily). */
interface HandlerContext {
  clientName?: string;
  commandName?: string;
}
type Next = (args: {
  input: Record<string, unknown>;
}) => Promise<{ output?: { $metadata?: { requestId?: string; httpStatusCode?: number } } }>;
interface MiddlewareStack {
  add(
    middleware: (next: Next, ctx: HandlerContext) => Next,
    options: { step: string; name: string; override?: boolean },
  ): void;
}

/**
 * What a call's span records of its input: the bucket, the table or the function, never an object key (a stored
 * output's key is its `mcp-output://` URI, a capability), an item's key or a payload.
 */
function inputAttributes(service: string, input: Record<string, unknown>): SpanAttributes {
  const { Bucket, TableName, FunctionName, InvocationType } = input;
  if (service === 'S3' && typeof Bucket === 'string') return { 'aws.s3.bucket': Bucket };
  if (service === 'DynamoDB' && typeof TableName === 'string')
    return { 'aws.dynamodb.table_names': [TableName] };
  if (service === 'Lambda' && typeof FunctionName === 'string')
    return {
      'faas.invoked_name': FunctionName,
      'faas.invoked_provider': 'aws',
      ...(typeof InvocationType === 'string' ? { 'aws.lambda.invocation_type': InvocationType } : {}),
    };
  return {};
}

/**
 * A client span per AWS SDK call, by the OpenTelemetry AWS SDK conventions (`S3.PutObject`, `rpc.system` =
 * `aws-api`): added to the client's own middleware at its first step, so one span covers the call's retries, under
 * the request's span. A failure records its error's name (its message may quote a key).
 */
export function awsClientSpans(tracer: Tracer): InstrumentClient {
  return (client) => {
    const stack = (client as { middlewareStack?: MiddlewareStack }).middlewareStack;
    if (!stack) return client;
    const middleware =
      (next: Next, ctx: HandlerContext): Next =>
      async (args) => {
        const service = (ctx.clientName ?? 'AWS').replace(/Client$/, '');
        const method = (ctx.commandName ?? 'Call').replace(/Command$/, '');
        const attributes = {
          'rpc.system': 'aws-api',
          'rpc.service': service,
          'rpc.method': method,
          ...inputAttributes(service, args.input ?? {}),
        };
        const span = tracer.startSpan(`${service}.${method}`, { kind: SpanKind.CLIENT, attributes });
        try {
          const result = await context.with(trace.setSpan(context.active(), span), () => next(args));
          const metadata = result.output?.$metadata;
          if (metadata?.requestId) span.setAttribute('aws.request_id', metadata.requestId);
          if (metadata?.httpStatusCode)
            span.setAttribute('http.response.status_code', metadata.httpStatusCode);
          return result;
        } catch (error) {
          recordFailure(span, error, true);
          throw error;
        } finally {
          span.end();
        }
      };
    stack.add(middleware, { step: 'initialize', name: 'mcpLambdaTracing', override: true });
    return client;
  };
}
