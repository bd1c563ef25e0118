import { createDeployedBridge, loadBridgeConfig } from '@mcp-lambda/bridge';
import { createProxyLambdaHandler, jsonLogger, loadLogLevel } from '@mcp-lambda/server/lambda';

// Cold start: read and check the configuration once per container; secrets and keys are fetched on first use.
const config = loadBridgeConfig(process.env);
const logger = jsonLogger({ serviceName: 'mcp-authorization-bridge', level: loadLogLevel(process.env) });

// With BRIDGE_TRACING the KMS, DynamoDB and Secrets Manager calls are captured (a chunk loaded only then).
const tracing = config.tracing
  ? (await import('../mcp/tracing.ts')).xrayTracing('mcp-authorization-bridge')
  : undefined;

/**
 * Lambda entry point: API Gateway HTTP API (payload format 2.0) or, behind a custom domain with the streaming REST
 * API, REST API (payload format 1.0) → the authorization bridge.
 */
export const handler = createProxyLambdaHandler(
  createDeployedBridge(config, tracing ? { aws: { instrument: tracing.instrument } } : {}).handle,
  logger,
);
