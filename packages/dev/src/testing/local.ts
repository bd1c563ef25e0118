import type { Logger } from '@mcp-lambda/server';
import {
  createLambdaHandler,
  createStreamingLambdaHandler,
  type StreamingEvent,
  type StreamingHandler,
  silentLogger,
  createMcpServer,
  type McpServerOptions,
} from '@mcp-lambda/server/lambda';
import { startLocalServer, type LambdaHttpHandler } from '../local/dev-server.ts';

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
