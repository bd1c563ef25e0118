import { ErrorCode, McpError } from './errors.ts';
import type { JSONObject, JSONRPCRequest, JSONRPCNotification, RequestId } from './types.ts';
import { MAX_JSON_DEPTH } from '../limits.ts';
import { isJsonObject, nestsDeeperThan } from './json.ts';

/**
 * One parsed POST body: a request to answer, a notification or client response to acknowledge, or a rejection
 * (which the transport answers with HTTP 400).
 */
export type ParsedMessage =
  | { kind: 'request'; message: JSONRPCRequest }
  | { kind: 'notification'; message: JSONRPCNotification }
  | { kind: 'response'; message: JSONObject }
  | { kind: 'invalid'; id: RequestId | null; error: McpError };

/** Request ids are strings or integers (spec: basic/index, "Requests"); null is never a valid request id. */
export function isValidRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

const invalid = (message: string, id: RequestId | null = null): ParsedMessage => ({
  kind: 'invalid',
  id,
  error: new McpError(ErrorCode.InvalidRequest, message),
});

/** Parses and shape-checks exactly one JSON-RPC 2.0 message (no batches: removed in 2025-06-18). */
export function parseMessage(body: string): ParsedMessage {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {
      kind: 'invalid',
      id: null,
      error: new McpError(ErrorCode.ParseError, 'Parse error: body is not valid JSON'),
    };
  }
  // The one place a client's JSON enters, so every walk after it (size checks, capability trimming, digests,
  // validation, serialization) is safe. Parse error rather than Invalid Request: RFC 8259 §9 lets a parser limit
  // nesting, and text beyond that limit is text this parser does not accept, whatever the message says; nothing of
  // a message refused so is read, so its id is null, as JSON-RPC 2.0 wants for parse errors.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    return {
      kind: 'invalid',
      id: null,
      error: new McpError(
        ErrorCode.ParseError,
        `Parse error: the body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
      ),
    };
  }
  if (Array.isArray(value)) {
    return invalid('Invalid Request: JSON-RPC batches are not supported; send one message per POST');
  }
  if (!isJsonObject(value)) return invalid('Invalid Request: a JSON-RPC message must be a JSON object');
  const id = isValidRequestId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return invalid('Invalid Request: "jsonrpc" must be "2.0"', id);
  if (!('method' in value)) {
    if (('result' in value || 'error' in value) && (isValidRequestId(value.id) || value.id === null)) {
      return { kind: 'response', message: value };
    }
    return invalid('Invalid Request: "method" is missing', id);
  }
  if (typeof value.method !== 'string' || value.method === '') {
    return invalid('Invalid Request: "method" must be a non-empty string', id);
  }
  if ('params' in value && value.params !== undefined && !isJsonObject(value.params)) {
    return invalid('Invalid Request: "params" must be an object', id);
  }
  if (!('id' in value)) {
    return { kind: 'notification', message: value as unknown as JSONRPCNotification };
  }
  if (id === null) return invalid('Invalid Request: "id" must be a string or an integer');
  return { kind: 'request', message: value as unknown as JSONRPCRequest };
}
