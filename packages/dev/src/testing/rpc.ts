import { type HttpRequest, type HttpResponse, silentLogger, type McpServer } from '@mcp-lambda/server/lambda';

/**
 * Headers every well-behaved handshake-era client sends after negotiating 2025-11-25. Pass
 * `'mcp-protocol-version': undefined` to act as a 2025-03-26 client, which never sends the header.
 */
export const BASE_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
} as const;

/** The 2026-07-28 per-request envelope. */
export const statelessMeta = (version = '2026-07-28') => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
});

/** Sends one neutral HTTP request straight into a server's transport (no network). */
export async function send(
  server: McpServer,
  init: {
    method?: string;
    path?: string;
    headers?: Record<string, string | undefined>;
    body?: unknown;
    raw?: string;
  },
): Promise<HttpResponse & { json: any }> {
  const req: HttpRequest = {
    method: init.method ?? 'POST',
    path: init.path ?? '/mcp',
    headers: Object.fromEntries(
      Object.entries({ ...BASE_HEADERS, ...init.headers }).map(([k, v]) => [k.toLowerCase(), v]),
    ),
    ...(init.raw !== undefined
      ? { body: init.raw }
      : init.body !== undefined
        ? { body: JSON.stringify(init.body) }
        : {}),
  };
  const res = await server.handle(req, { requestId: 'test-request', log: silentLogger });
  let json: any;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { ...res, json };
}

/** Stateless headers matching a body. */
export function statelessHeaders(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
  };
}
