/**
 * MCP requests as a well-behaved client puts them on the wire, for the load command and the benchmarks: the
 * Streamable HTTP headers, and either a 2025-era request or a 2026-07-28 request with its `_meta` envelope and
 * mirrored `Mcp-Method` / `Mcp-Name` / `Mcp-Param-*` headers.
 */

/** Which protocol era the requests speak. */
export type LoadEra = 'handshake' | 'stateless';

/** The newest handshake-era revision, sent in `MCP-Protocol-Version` when no `initialize` negotiated another. */
export const HANDSHAKE_VERSION = '2025-11-25';
/** The stateless revision. */
export const STATELESS_VERSION = '2026-07-28';

/** Identifies the load generator to servers (`clientInfo`). */
export const CLIENT_INFO = { name: 'mcp-load', version: '1.0.0' } as const;

/** A request ready to send: headers (lower-case names) and the JSON body. */
export interface WireRequest {
  headers: Record<string, string>;
  body: string;
}

/** A tool parameter the server asked clients to mirror into a header (`x-mcp-header`, 2026-07-28). */
export interface MirroredParam {
  /** Header suffix: the header is `Mcp-Param-{name}`. */
  name: string;
  /** Path of the value inside `arguments`. */
  path: readonly string[];
}

const PLAIN_HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Encodes a header value as the 2026-07-28 transport asks: printable ASCII as is, anything else (non-ASCII,
 * control characters, leading or trailing spaces, empty) wrapped as `=?base64?…?=`.
 */
export function encodeHeaderValue(value: string): string {
  return PLAIN_HEADER_VALUE.test(value) && !value.startsWith('=?base64?')
    ? value
    : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The text form of a mirrored parameter (strings as is, integers and booleans in JSON form). */
function paramText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value)))
    return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The headers every request carries: JSON in, JSON or SSE back, and the caller's extra headers. */
export function baseHeaders(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k.toLowerCase(), v])),
  };
}

/** Options for one request. */
export interface RequestOptions {
  era: LoadEra;
  /** Revision to claim; defaults to the newest of the era. */
  protocolVersion?: string;
  /** JSON-RPC id. Default 1. */
  id?: number | string;
  /** Extra headers (authorization, session id…). */
  headers?: Readonly<Record<string, string>>;
  /** Stateless era: the capabilities the request declares (`elicitation`, `extensions`…). Default none. */
  capabilities?: Readonly<Record<string, unknown>>;
}

/** Builds any request (`tools/list`, `initialize`…) for the given era. */
export function rpcRequest(
  method: string,
  params: Record<string, unknown>,
  options: RequestOptions,
  mirror: { name?: string; params?: Readonly<Record<string, string>> } = {},
): WireRequest {
  return message(method, params, options, mirror, options.id ?? 1);
}

/** Builds a notification (no id, never answered) for the given era. */
export function rpcNotification(
  method: string,
  params: Record<string, unknown>,
  options: RequestOptions,
): WireRequest {
  return message(method, params, options, {}, undefined);
}

function message(
  method: string,
  params: Record<string, unknown>,
  options: RequestOptions,
  mirror: { name?: string; params?: Readonly<Record<string, string>> },
  id: number | string | undefined,
): WireRequest {
  const version =
    options.protocolVersion ?? (options.era === 'stateless' ? STATELESS_VERSION : HANDSHAKE_VERSION);
  const headers = baseHeaders(options.headers);
  let body: Record<string, unknown> = { jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method, params };
  if (options.era === 'stateless') {
    body = {
      ...body,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
          'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        },
      },
    };
    headers['mcp-protocol-version'] = version;
    headers['mcp-method'] = encodeHeaderValue(method);
    if (mirror.name !== undefined) headers['mcp-name'] = encodeHeaderValue(mirror.name);
    for (const [name, value] of Object.entries(mirror.params ?? {})) {
      headers[`mcp-param-${name.toLowerCase()}`] = encodeHeaderValue(value);
    }
  } else if (method !== 'initialize') {
    headers['mcp-protocol-version'] = version;
  }
  return { headers, body: JSON.stringify(body) };
}

/**
 * Builds a `tools/call`, mirroring the name and any declared parameters into headers (stateless era). `extra` adds
 * parameters beside the name and arguments (a retry's `inputResponses` and `requestState`).
 */
export function toolCallRequest(
  tool: string,
  args: Record<string, unknown>,
  options: RequestOptions,
  mirrored: readonly MirroredParam[] = [],
  extra: Record<string, unknown> = {},
): WireRequest {
  const params: Record<string, string> = {};
  for (const declared of mirrored) {
    const text = paramText(valueAt(args, declared.path));
    if (text !== undefined) params[declared.name] = text;
  }
  return rpcRequest('tools/call', { name: tool, arguments: args, ...extra }, options, { name: tool, params });
}

/** Builds the handshake-era `initialize` request. */
export function initializeRequest(options: Omit<RequestOptions, 'era'>): WireRequest {
  return rpcRequest(
    'initialize',
    {
      protocolVersion: options.protocolVersion ?? HANDSHAKE_VERSION,
      capabilities: {},
      clientInfo: CLIENT_INFO,
    },
    { ...options, era: 'handshake' },
  );
}

/** Collects the `x-mcp-header` declarations of a tool's input schema (reachable through `properties` only). */
export function mirroredParams(inputSchema: unknown): MirroredParam[] {
  const found: MirroredParam[] = [];
  const visit = (node: unknown, path: string[], depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 32) return;
    const schema = node as Record<string, unknown>;
    const name = schema['x-mcp-header'];
    if (path.length > 0 && typeof name === 'string' && name !== '') found.push({ name, path });
    const properties = schema.properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], depth + 1);
    }
  };
  visit(inputSchema, [], 0);
  return found;
}
