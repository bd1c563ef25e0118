import { createCompanionFunction } from '@mcp-lambda/server/lambda';

/**
 * Lambda entry point, invoked directly by the MCP function (never through API Gateway): the only reader of stored
 * outputs, a whole one for `resources/read` or a page of one for `read_output`.
 */
export const handler = await createCompanionFunction();
