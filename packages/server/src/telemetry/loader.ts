import type { TelemetryOptions } from './otel.ts';
import type { Telemetry } from './telemetry.ts';

export type { Telemetry, TracingMode } from './telemetry.ts';

/**
 * OpenTelemetry, loaded when asked for (MCP_TRACING `on`, `console` or `propagation`): `otel.ts` and the SDK are a
 * chunk of their own that a function without tracing never loads; one with it loads them during init.
 */
export async function loadTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  return (await import('./otel.ts')).openTelemetry(options);
}
