import {
  context,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { nodeCrypto } from '../crypto.ts';
import type { Dispatch, DispatchContext, DispatchOutcome } from '../dispatcher.ts';
import { isShortEcho } from '../protocol/client-text.ts';
import type { JSONRPCRequest } from '../protocol/types.ts';
import { parentage } from './parents.ts';
import type { SpanAttributes, TracedNames } from './telemetry.ts';

/** JSON-RPC's "method not found": the method a client named is none of ours, and its name is not recorded. */
const METHOD_NOT_FOUND = -32601;
/**
 * A span's status description for a JSON-RPC error: the code's standard message, not the error's own (which may
 * quote the client's input: the method it named, an argument).
 */
const STANDARD_MESSAGES: Record<number, string> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
};

/**
 * `mcp.session.id`: a session id here is sealed (it carries the client's declaration under the server's key and
 * is a bearer of its session), so spans hold a digest of it, the same for every request of the session.
 */
const sessionDigest = (id: string): string =>
  nodeCrypto().createHash('sha256').update(id).digest('hex').slice(0, 32);

/** The target of a span's name: a tool or prompt the server has, never a name the client made up. */
function targetOf(request: JSONRPCRequest, names: TracedNames): { tool?: string; prompt?: string } {
  const name = request.params?.name;
  if (typeof name !== 'string') return {};
  if (request.method === 'tools/call' && names.isTool(name)) return { tool: name };
  if (request.method === 'prompts/get' && names.isPrompt(name)) return { prompt: name };
  return {};
}

/** The MCP conventions' attributes of a request, before it is answered. */
function requestAttributes(
  request: JSONRPCRequest,
  ctx: DispatchContext,
  names: TracedNames,
): SpanAttributes {
  const { tool, prompt } = targetOf(request, names);
  const uri = request.params?.uri;
  return {
    'mcp.method.name': request.method,
    'mcp.protocol.version': ctx.revision.protocolVersion,
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    ...(isShortEcho(request.id) ? { 'jsonrpc.request.id': String(request.id) } : {}),
    ...(tool ? { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool } : {}),
    ...(prompt ? { 'gen_ai.prompt.name': prompt } : {}),
    // Only the server's own views: any other URI may be a capability (a stored output's `mcp-output://` URI is one).
    ...(request.method === 'resources/read' && typeof uri === 'string' && names.isView(uri)
      ? { 'mcp.resource.uri': uri }
      : {}),
    ...(ctx.session ? { 'mcp.session.id': sessionDigest(ctx.session.id) } : {}),
  };
}

/** How the request ended, by the conventions: a JSON-RPC error's code, or `tool_error` for an `isError` result. */
function recordOutcome(span: Span, outcome: DispatchOutcome): void {
  const { response } = outcome;
  if ('error' in response) {
    const code = String(response.error.code);
    if (response.error.code === METHOD_NOT_FOUND) {
      span.updateName('_OTHER');
      span.setAttribute('mcp.method.name', '_OTHER');
    }
    span.setAttributes({ 'error.type': code, 'rpc.response.status_code': code });
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: STANDARD_MESSAGES[response.error.code] ?? 'JSON-RPC error',
    });
  } else if (typeof response.result.protocolVersion === 'string') {
    // `initialize`: the version the server chose, not the one the client asked for.
    span.setAttribute('mcp.protocol.version', response.result.protocolVersion);
  } else if (response.result.isError === true) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

/**
 * The server span of each MCP request (`{mcp.method.name} {target}`, kind SERVER), child of the context in its
 * `params._meta` (else its HTTP `traceparent`), current while the request runs so that the tool's work and the AWS
 * calls nest under it.
 */
export function spannedDispatch(
  dispatch: Dispatch,
  tracer: Tracer,
  names: TracedNames,
  lambdaHeader: () => string | undefined,
): Dispatch {
  return (request, ctx) => {
    const { parent, links } = parentage(request.params?._meta, lambdaHeader(), ctx.traceHeaders);
    const attributes = requestAttributes(request, ctx, names);
    const target = attributes['gen_ai.tool.name'] ?? attributes['gen_ai.prompt.name'];
    const name = target ? `${request.method} ${target}` : request.method;
    const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, links }, parent);
    return context.with(trace.setSpan(parent, span), async () => {
      try {
        const outcome = await dispatch(request, ctx);
        recordOutcome(span, outcome);
        return withTraceIds(outcome, span.spanContext());
      } finally {
        span.end();
      }
    });
  };
}

/** Each MCP request inside the trace context it carries (`propagation`): no span of ours, its ids passed on. */
export function propagatedDispatch(dispatch: Dispatch, lambdaHeader: () => string | undefined): Dispatch {
  return (request, ctx) => {
    const { parent } = parentage(request.params?._meta, lambdaHeader(), ctx.traceHeaders);
    const ids = trace.getSpanContext(parent);
    return context.with(parent, async () => withTraceIds(await dispatch(request, ctx), ids));
  };
}

/** The request's log line carries its trace and span ids (it is written after the request, outside its context). */
function withTraceIds(outcome: DispatchOutcome, ids: SpanContext | undefined): DispatchOutcome {
  if (!ids || !isSpanContextValid(ids)) return outcome;
  return { ...outcome, audit: { ...outcome.audit, trace_id: ids.traceId, span_id: ids.spanId } };
}
