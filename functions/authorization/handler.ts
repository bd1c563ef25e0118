import { createAuthorizationFunction } from '@mcp-lambda/bridge';

/**
 * Lambda entry point: API Gateway HTTP API (payload format 2.0) or, behind a custom domain with the streaming REST
 * API, REST API (payload format 1.0) → the authorization bridge.
 */
export const handler = await createAuthorizationFunction();
