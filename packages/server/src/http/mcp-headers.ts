import { clientText } from '../protocol/client-text.ts';
import { HeaderMismatchError } from '../protocol/errors.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { ParamHeader } from '../tools/param-headers.ts';
import { paramHeaderValue, valueAtPath } from '../tools/param-headers.ts';

/**
 * Header rules of the 2026-07-28 Streamable HTTP transport: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-*` mirror the body so gateways can route without parsing it; the server checks they agree.
 */

/** Methods whose `Mcp-Name` header mirrors a body field (the tasks rows: SEP-2663 "Routing Headers"). */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'resources/read': 'uri',
  'prompts/get': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const PREFIX = '=?base64?';
const SUFFIX = '?=';
/** Canonical padded Base64 (RFC 4648 section 4). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain (unwrapped) value may carry: visible ASCII, space and tab (RFC 9110 field values). */
const PLAIN = /^[\t\x20-\x7e]*$/;
/** An integer header value, compared numerically with the body (`42.0` equals `42`). */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a header value, unwrapping the `=?base64?…?=` form (2026-07-28 Streamable HTTP, "Value Encoding");
 * `undefined` when the value carries characters a client must have Base64-wrapped, or the wrapping is not
 * canonical Base64 of UTF-8 text.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const wrapped =
    raw.length >= PREFIX.length + SUFFIX.length && raw.startsWith(PREFIX) && raw.endsWith(SUFFIX);
  if (!wrapped) return PLAIN.test(raw) ? raw : undefined;
  const payload = raw.slice(PREFIX.length, -SUFFIX.length);
  if (!BASE64.test(payload)) return undefined;
  try {
    return utf8.decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

const mismatch = (header: string, detail: string) => new HeaderMismatchError(header, detail);

/**
 * Checks a stateless request's headers against its body; returns the -32020 error to answer with, if any.
 * Notifications need no headers, but headers they do carry must agree.
 */
export function checkStatelessHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  message: { method: string; params?: JSONObject },
  protocolVersion: string,
  isRequest: boolean,
  paramHeadersOf: (tool: string) => readonly ParamHeader[],
): HeaderMismatchError | undefined {
  const version = headers['mcp-protocol-version'];
  if (version === undefined) {
    if (isRequest) return mismatch('MCP-Protocol-Version', 'the MCP-Protocol-Version header is required');
  } else if (version.trim() !== protocolVersion) {
    return mismatch(
      'MCP-Protocol-Version',
      `MCP-Protocol-Version is ${clientText(version)} but the body claims ${protocolVersion}`,
    );
  }
  const methodHeader = headers['mcp-method'];
  if (methodHeader === undefined) {
    if (isRequest) return mismatch('Mcp-Method', 'the Mcp-Method header is required');
  } else if (decodeHeaderValue(methodHeader.trim()) !== message.method) {
    return mismatch(
      'Mcp-Method',
      `Mcp-Method is ${clientText(methodHeader)} but the body method is ${clientText(message.method)}`,
    );
  }
  // Own keys only: a method named "constructor" or "__proto__" must not find Object.prototype members.
  const source = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  const params = message.params ?? {};
  if (source && isRequest) {
    const bodyValue = params[source];
    const nameHeader = headers['mcp-name'];
    if (nameHeader === undefined)
      return mismatch('Mcp-Name', `the Mcp-Name header is required for ${message.method}`);
    const decoded = decodeHeaderValue(nameHeader.trim());
    if (decoded === undefined)
      return mismatch(
        'Mcp-Name',
        'Mcp-Name has characters that need =?base64?…?= or a malformed =?base64?…?= value',
      );
    if (typeof bodyValue === 'string' && decoded !== bodyValue) {
      return mismatch(
        'Mcp-Name',
        `Mcp-Name is ${JSON.stringify(clientText(decoded))} but params.${source} is ${JSON.stringify(clientText(bodyValue))}`,
      );
    }
  }
  if (message.method === 'tools/call' && typeof params.name === 'string') {
    for (const declared of paramHeadersOf(params.name)) {
      const problem = checkParamHeader(headers, declared, params.arguments);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Checks one `Mcp-Param-*` header against the argument it mirrors (2026-07-28, `x-mcp-header`). */
function checkParamHeader(
  headers: Readonly<Record<string, string | undefined>>,
  declared: ParamHeader,
  args: unknown,
): HeaderMismatchError | undefined {
  const name = `Mcp-Param-${declared.name}`;
  const raw = headers[name.toLowerCase()];
  const value = valueAtPath(args, declared.path);
  const expected = value === undefined || value === null ? undefined : paramHeaderValue(value);
  if (expected === undefined) {
    if (raw !== undefined && value !== undefined && value !== null) return undefined; // wrong type: the schema check reports it
    return raw !== undefined ? mismatch(name, `${name} is sent but the argument is absent`) : undefined;
  }
  if (raw === undefined) return mismatch(name, `the ${name} header is required`);
  const decoded = decodeHeaderValue(raw.trim());
  if (decoded === undefined)
    return mismatch(name, `${name} has characters that need =?base64?…?= or a malformed =?base64?…?= value`);
  const same =
    declared.type === 'integer' && typeof value === 'number' && DECIMAL.test(decoded)
      ? Number(decoded) === value
      : decoded === expected;
  return same ? undefined : mismatch(name, `${name} does not match arguments.${declared.path.join('.')}`);
}
