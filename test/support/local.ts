import { type RunningServer, serveHandler } from '@mcp-lambda/dev/testing';

/**
 * Serves the real MCP function (`functions/mcp/handler.ts`) with the given environment. The module reads its
 * configuration at import, so call this once per test file (vitest isolates modules per file).
 */
export async function serveMcpFunction(
  env: Record<string, string> = {},
  options: { timeoutMs?: number } = {},
): Promise<RunningServer> {
  Object.assign(process.env, { POWERTOOLS_LOG_LEVEL: 'SILENT', ...env });
  const { handler } = await import('../../functions/mcp/handler.ts');
  return serveHandler(handler, options);
}
