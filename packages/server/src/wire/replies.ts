import { ErrorCode, McpError } from '../protocol/errors.ts';
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from '../protocol/types.ts';
import type { HttpResponse } from './types.ts';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON body with its status. */
export function json(status: number, body: unknown, extra: Record<string, string> = {}): HttpResponse {
  return { status, headers: { ...JSON_HEADERS, ...extra }, body: JSON.stringify(body) };
}

/** A JSON-RPC error response with an HTTP status. */
export function errorReply(
  status: number,
  error: McpError,
  id: RequestId | null = null,
  extra: Record<string, string> = {},
): HttpResponse {
  return json(status, error.toResponse(id), extra);
}

/** A transport-level refusal (-32000) before any message is read: wrong path, Origin, method, media type, size. */
export function refusal(status: number, message: string, extra: Record<string, string> = {}): HttpResponse {
  return errorReply(status, new McpError(ErrorCode.ServerError, message), null, extra);
}

/** 202 with no body: a notification or a client's response, acknowledged and never answered. */
export const ACCEPTED: HttpResponse = Object.freeze({ status: 202, headers: {}, body: '' }) as HttpResponse;

/**
 * Headers of every per-request event stream. `X-Accel-Buffering: no` asks reverse proxies not to hold events back
 * (spec: Streamable HTTP, "Receiving Messages").
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** One message (JSON text) as one SSE event, with its id on a resumable stream. */
export const sseFrame = (data: string, id?: string): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: message\ndata: ${data}\n\n`;

/** One message as one SSE event. */
function sseEvent(message: JSONRPCNotification | JSONRPCRequest | JSONRPCResponse): string {
  return sseFrame(JSON.stringify(message));
}

/** One SSE event per message; the stream ends with the response, so it is complete when the body is. */
export function sse(messages: readonly (JSONRPCNotification | JSONRPCResponse)[]): HttpResponse {
  return { status: 200, headers: { ...SSE_HEADERS }, body: messages.map(sseEvent).join('') };
}
