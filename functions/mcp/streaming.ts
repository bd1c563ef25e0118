/**
 * The MCP function with response streaming: the same server as `handler.ts`, behind the Lambda response-streaming
 * adapter, for an API Gateway REST API whose integration streams (`-c api=rest-streaming`) or a function URL in
 * RESPONSE_STREAM mode. Progress and log notifications leave while the tool runs. Its own entry point, so the HTTP API
 * bundle carries no streaming adapter.
 */
import { createStreamingLambdaHandler } from '@mcp-lambda/server/lambda';
import { handle, logger } from './handler.ts';

/** Lambda entry point: REST API proxy events (payload 1.0) or function URL events (2.0) → MCP, streamed. */
export const streamingHandler = createStreamingLambdaHandler(handle, logger);
