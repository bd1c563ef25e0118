import { createStreamingLambdaHandler } from '../lambda/streaming.ts';
import { mcpFunctionParts, type McpFunctionOptions } from './mcp-function.ts';

/**
 * The MCP function with response streaming: the same server as `createMcpFunction`, behind the Lambda
 * response-streaming adapter, for an API Gateway REST API whose integration streams (`-c api=rest-streaming`) or a
 * function URL in RESPONSE_STREAM mode: REST API proxy events (payload 1.0) or function URL events (2.0) → MCP.
 * Progress and log notifications leave while the tool runs. A module of its own, so the HTTP API bundle carries no
 * streaming adapter.
 */
export async function createStreamingMcpFunction(options: McpFunctionOptions) {
  const { handle, logger } = await mcpFunctionParts(options);
  return createStreamingLambdaHandler(handle, logger);
}
