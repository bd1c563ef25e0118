import { createLambdaHandler } from '../../packages/server/src/lambda/adapter.ts';
import {
  createStreamingLambdaHandler,
  type StreamingEvent,
} from '../../packages/server/src/lambda/streaming.ts';
import type { StreamingHandler } from '../../packages/server/src/lambda/stream-runtime.ts';
import { startLocalServer, type LambdaHttpHandler } from '../../packages/dev/src/local/dev-server.ts';
import { silentLogger, type Logger } from '../../packages/server/src/log.ts';
import { createMcpServer, type McpServerOptions } from '../../packages/server/src/server.ts';

/** A running local server and how to reach it. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  base: string;
  /** The MCP endpoint URL. */
  url: string;
  close(): Promise<void>;
}

/** Serves any Lambda handler on 127.0.0.1 with a free port, through the same adapter as `npm start`. */
export async function serveHandler(
  handler: LambdaHttpHandler,
  options: { timeoutMs?: number; path?: string } = {},
): Promise<RunningServer> {
  const local = await startLocalServer({
    handler,
    port: 0,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { base: local.url, url: `${local.url}${options.path ?? '/mcp'}`, close: local.close };
}

/** Builds a server from options and serves it like the real function (Lambda adapter + local HTTP). */
export async function serveServer(
  options: McpServerOptions,
  extra: { timeoutMs?: number; log?: Logger } = {},
): Promise<RunningServer> {
  const server = createMcpServer(options);
  return serveHandler(createLambdaHandler(server.handle, extra.log ?? silentLogger), {
    ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
    path: options.http?.path ?? '/mcp',
  });
}

/** Serves a Lambda response-streaming handler on 127.0.0.1 with a free port, as `LOCAL_API=rest-streaming npm start`. */
export async function serveStreamingHandler(
  streamingHandler: StreamingHandler<StreamingEvent>,
  options: { timeoutMs?: number; path?: string } = {},
): Promise<RunningServer> {
  const local = await startLocalServer({
    streamingHandler,
    port: 0,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  return { base: local.url, url: `${local.url}${options.path ?? '/mcp'}`, close: local.close };
}

/** Builds a server from options and serves it behind the Lambda response-streaming adapter and the local server. */
export async function serveStreamingServer(
  options: McpServerOptions,
  extra: { timeoutMs?: number; log?: Logger } = {},
): Promise<RunningServer> {
  const server = createMcpServer(options);
  return serveStreamingHandler(createStreamingLambdaHandler(server.handle, extra.log ?? silentLogger), {
    ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
    path: options.http?.path ?? '/mcp',
  });
}

/**
 * Serves the real MCP function (`functions/mcp/handler.ts`) with the given environment. The module reads its
 * configuration at import, so call this once per test file (vitest isolates modules per file).
 */
export async function serveMcpFunction(
  env: Record<string, string> = {},
  options: { timeoutMs?: number } = {},
): Promise<RunningServer> {
  Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'SILENT', ...env });
  const { handler } = await import('../../functions/mcp/handler.ts');
  return serveHandler(handler, options);
}
