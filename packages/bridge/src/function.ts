import {
  createProxyLambdaHandler,
  jsonLogger,
  loadLogLevel,
  loadXrayTracing,
} from '@mcp-lambda/server/lambda';
import { loadBridgeConfig } from './config.ts';
import { createDeployedBridge } from './deployed.ts';

const SERVICE_NAME = 'mcp-authorization-bridge';

/**
 * The authorization bridge function's Lambda handler, built from the environment: API Gateway HTTP API (payload
 * format 2.0) or, behind a custom domain with the streaming REST API, REST API (payload format 1.0) → the bridge.
 * The configuration is read and checked once per container; secrets and keys are fetched on first use. With
 * BRIDGE_TRACING the KMS, DynamoDB and Secrets Manager calls are captured (the tracer's chunk loads only then).
 */
export async function createAuthorizationFunction(
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
) {
  const env = options.env ?? process.env;
  const config = loadBridgeConfig(env);
  const logger = jsonLogger({ serviceName: SERVICE_NAME, level: loadLogLevel(env) });
  const tracing = config.tracing ? (await loadXrayTracing())(SERVICE_NAME) : undefined;
  const bridge = createDeployedBridge(config, tracing ? { aws: { instrument: tracing.instrument } } : {});
  return createProxyLambdaHandler(bridge.handle, logger);
}
