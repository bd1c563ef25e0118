import { defineTool } from '@mcp-lambda/server';

/** The smallest possible tool: no arguments, a fixed answer. Handy for health checks and load tests. */
export const ping = defineTool({
  name: 'ping',
  title: 'Ping',
  description: 'Checks that the server answers. Returns the word "pong".',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: () => 'pong',
});
