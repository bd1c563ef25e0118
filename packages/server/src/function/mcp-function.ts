import type { Transport } from '../http/transport.ts';
import { createLambdaHandler } from '../lambda/adapter.ts';
import type { Logger } from '../log.ts';
import { createMcpServer, type McpServerOptions } from '../server.ts';
import type { ToolDefinition } from '../tools/define.ts';
import { authenticatorFor, toolCallObserver } from './observers.ts';
import { outputOptions } from './outputs.ts';
import { startFunction } from './start.ts';
import { stateOptions } from './state.ts';

/**
 * What an MCP function is made of that is the app's own: its tools and what it serves beside them. Everything else
 * (storage, tasks, sessions, authorization, limits, metrics, tracing) is read from the environment, as the stack and
 * `npm start` set it (the README's configuration table).
 */
export interface McpFunctionOptions extends Pick<
  McpServerOptions,
  | 'instructions'
  | 'validators'
  | 'resources'
  | 'prompts'
  | 'views'
  | 'deleteOutputTool'
  | 'logging'
  | 'completions'
> {
  tools: readonly ToolDefinition[];
  /** serverInfo's `title`; its name and version come from MCP_SERVER_NAME and MCP_SERVER_VERSION. */
  title?: string;
  /** The environment the function is configured by. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The server of an MCP function, with the transport both Lambda adapters serve and the function's logger. */
export interface McpFunctionParts {
  handle: Transport;
  logger: Logger;
}

/** Builds the server once per container from the app's parts and the environment (both entry points share it). */
export async function mcpFunctionParts(options: McpFunctionOptions): Promise<McpFunctionParts> {
  const { env = process.env, title, resources = [], ...served } = options;
  const start = await startFunction(env);
  const { config, telemetry } = start;
  const { reader, ...outputs } = outputOptions(config.offload, start.aws, telemetry?.carrier);
  const auth = await authenticatorFor(config.auth, config.serverName, served.tools);
  const observer = await toolCallObserver(start);
  const server = createMcpServer({
    info: { name: config.serverName, version: config.serverVersion, ...(title ? { title } : {}) },
    ...served,
    resources: reader ? [...resources, reader] : resources,
    ...outputs,
    readOutputTool: config.offload.readTool,
    ...stateOptions(start),
    ...(auth ? { auth } : {}),
    ...(observer ? { observer } : {}),
    ...(telemetry ? { telemetry } : {}),
    pageSize: config.pageSize,
    toolTimeoutMs: config.toolTimeoutMs,
    listCache: { ttlMs: config.listCacheTtlMs, cacheScope: 'public' },
    http: {
      path: config.mcpPath,
      allowedOrigins: config.allowedOrigins,
      maxBodyBytes: config.maxBodyBytes,
      streamLogAfterMs: config.asking.streamLogAfterMs,
      ...(config.allowedHosts ? { allowedHosts: config.allowedHosts } : {}),
    },
  });
  // With tracing, each invocation's spans are sent before it returns.
  const handle = telemetry ? telemetry.flushing(server.handle) : server.handle;
  return { handle, logger: start.logger };
}

/**
 * The MCP function's Lambda handler, built from the environment: API Gateway HTTP API (payload format 2.0) → MCP,
 * one complete response per request. Await it at the top of the entry module, so the set-up runs in Lambda's init.
 */
export async function createMcpFunction(options: McpFunctionOptions) {
  const { handle, logger } = await mcpFunctionParts(options);
  return createLambdaHandler(handle, logger);
}
