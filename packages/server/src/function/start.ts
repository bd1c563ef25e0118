import { loadConfig, type Config } from '../config.ts';
import type { Env } from '../config-values.ts';
import type { InstrumentClient } from '../instrument.ts';
import { jsonLogger, loadLogLevel, type Logger } from '../log.ts';
import { loadTelemetry, type Telemetry } from '../telemetry/loader.ts';
import { loadXrayTracing, type McpTracing } from './tracing-loader.ts';

/** What every function of the server reads and makes first, once per container. */
export interface FunctionStart {
  config: Config;
  logger: Logger;
  /** OpenTelemetry (MCP_TRACING `on`, `console`, `propagation`); undefined otherwise. */
  telemetry: Telemetry | undefined;
  /** X-Ray tracing (MCP_TRACING `xray`); undefined otherwise. */
  tracing: McpTracing | undefined;
  /** The options every AWS client of the function takes: captured by the tracer when tracing is on. */
  aws: { instrument?: InstrumentClient };
}

/**
 * Cold start of a function: the configuration from the environment, the logger, and the tracing MCP_TRACING asks
 * for, whose chunk is imported only then. `role` names the function in its logs and traces (`-worker`, `-resources`).
 */
export async function startFunction(env: Env, role = ''): Promise<FunctionStart> {
  const config = loadConfig(env);
  const serviceName = `${config.serverName}${role}`;
  const mode = config.tracing;
  const otel = mode !== 'off' && mode !== 'xray';
  let telemetry: Telemetry | undefined;
  // Every line written inside a traced request carries its trace and span ids.
  const logger = jsonLogger({
    serviceName,
    level: loadLogLevel(env),
    ...(otel ? { traceFields: () => telemetry?.logFields() } : {}),
  });
  if (otel) telemetry = await loadTelemetry({ mode, serviceName, env, log: logger });
  const tracing = mode === 'xray' ? (await loadXrayTracing())(serviceName) : undefined;
  const instrument = telemetry?.instrument ?? tracing?.instrument;
  return { config, logger, telemetry, tracing, aws: instrument ? { instrument } : {} };
}
