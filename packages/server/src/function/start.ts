import { loadConfig, type Config } from '../config.ts';
import type { Env } from '../config-values.ts';
import type { InstrumentClient } from '../outbound.ts';
import { jsonLogger, loadLogLevel, type Logger } from '../log.ts';
import { loadTelemetry, type Telemetry } from '../telemetry/loader.ts';

/** What every function of the server reads and makes first, once per container. */
export interface FunctionStart {
  config: Config;
  logger: Logger;
  /** OpenTelemetry (MCP_TRACING `on`, `console`, `propagation`); undefined when it is off. */
  telemetry: Telemetry | undefined;
  /** The options every AWS client of the function takes: a span per call when tracing records spans. */
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
  const otel = mode !== 'off';
  let telemetry: Telemetry | undefined;
  // Every line written inside a traced request carries its trace and span ids.
  const logger = jsonLogger({
    serviceName,
    level: loadLogLevel(env),
    ...(otel ? { traceFields: () => telemetry?.logFields() } : {}),
  });
  if (otel) telemetry = await loadTelemetry({ mode, serviceName, env, log: logger });
  const instrument = telemetry?.instrument;
  return { config, logger, telemetry, aws: instrument ? { instrument } : {} };
}
