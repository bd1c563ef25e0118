import { createTaskWorkerFunction } from '@mcp-lambda/server/worker';
import { tools } from '../../src/tools/index.ts';
import { validators } from '../../src/generated/validators.generated.ts';

/**
 * Lambda entry point, invoked asynchronously by the MCP function with one task job: it runs the MCP function's own
 * tools, configured by the same environment.
 */
export const handler = await createTaskWorkerFunction({ tools, validators });
