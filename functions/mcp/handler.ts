import { createMcpFunction } from '@mcp-lambda/server/lambda';
import { app } from '../../src/app.ts';

/**
 * Lambda entry point: API Gateway HTTP API (payload format 2.0) → MCP, one complete response per request. The server
 * is built once per container, at cold start, from `src/app.ts` and the environment; `streaming.ts` serves the same one
 * with response streaming.
 */
export const handler = await createMcpFunction(app);
