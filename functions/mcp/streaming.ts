import { createStreamingMcpFunction } from '@mcp-lambda/server/lambda';
import { app } from '../../src/app.ts';

/**
 * Lambda entry point with response streaming: REST API proxy events (payload 1.0) or function URL events (2.0) → the
 * server of `handler.ts`, streamed (`-c api=rest-streaming`). Its own entry point, so the HTTP API bundle carries no
 * streaming adapter.
 */
export const streamingHandler = await createStreamingMcpFunction(app);
