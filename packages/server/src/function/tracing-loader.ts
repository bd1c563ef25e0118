import type { McpTracing } from './tracing.ts';

export type { McpTracing } from './tracing.ts';

/**
 * `xrayTracing`, loaded when asked for: a function without tracing never loads Powertools Tracer or the X-Ray SDK
 * (`tracing.ts` is a chunk of its own), and one with it loads them during init, not on a request.
 */
export async function loadXrayTracing(): Promise<(serviceName: string) => McpTracing> {
  return (await import('./tracing.ts')).xrayTracing;
}
