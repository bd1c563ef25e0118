import { loadConfig, type Config } from '../config.ts';
import type { Env } from '../config-values.ts';
import type { InstrumentClient } from '../instrument.ts';
import { jsonLogger, loadLogLevel, type Logger } from '../log.ts';
import { loadXrayTracing, type McpTracing } from './tracing-loader.ts';

/** What every function of the server reads and makes first, once per container. */
export interface FunctionStart {
  config: Config;
  logger: Logger;
  /** X-Ray tracing (MCP_TRACING); undefined when off. */
  tracing: McpTracing | undefined;
  /** The options every AWS client of the function takes: captured by the tracer when tracing is on. */
  aws: { instrument?: InstrumentClient };
}

/**
 * Cold start of a function: the configuration from the environment, the logger, and with MCP_TRACING the tracer,
 * whose chunk is imported only then. `role` names the function in its logs and traces (`-worker`, `-resources`).
 */
export async function startFunction(env: Env, role = ''): Promise<FunctionStart> {
  const config = loadConfig(env);
  const serviceName = `${config.serverName}${role}`;
  const logger = jsonLogger({ serviceName, level: loadLogLevel(env) });
  const tracing = config.tracing ? (await loadXrayTracing())(serviceName) : undefined;
  return { config, logger, tracing, aws: tracing ? { instrument: tracing.instrument } : {} };
}
