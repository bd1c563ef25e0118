import { metadataCandidates } from '@mcp-lambda/server/auth';
import {
  createProxyLambdaHandler,
  jsonLogger,
  loadLogLevel,
  loadTelemetry,
  type Telemetry,
} from '@mcp-lambda/server/lambda';
import type { AuthorizationBridge } from './bridge.ts';
import { loadBridgeConfig } from './config.ts';
import { createDeployedBridge } from './deployed.ts';
import { BRIDGE_PATHS } from './endpoints.ts';

const SERVICE_NAME = 'mcp-authorization-bridge';

type Handle = AuthorizationBridge['handle'];

/**
 * Each request inside a server span (`POST /oauth/token`; a path not the bridge's is never named), sent as it ends.
 */
function traced(handle: Handle, issuer: string, telemetry: Telemetry): Handle {
  const routes = new Set<string>([
    ...Object.values(BRIDGE_PATHS),
    ...metadataCandidates(issuer).map((url) => new URL(url).pathname),
  ]);
  return telemetry.flushing((req, ctx) =>
    telemetry.served({ method: req.method, route: routes.has(req.path) ? req.path : undefined }, () =>
      handle(req, ctx),
    ),
  );
}

/**
 * The authorization bridge function's Lambda handler, built from the environment: API Gateway HTTP API (payload
 * format 2.0) or, behind a custom domain with the streaming REST API, REST API (payload format 1.0) → the bridge.
 * The configuration is read and checked once per container; secrets and keys are fetched on first use. With
 * BRIDGE_TRACING each request and its KMS, DynamoDB and Secrets Manager calls are spans (OpenTelemetry loads only
 * then), and every log line of a request carries its trace and span ids.
 */
export async function createAuthorizationFunction(
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
) {
  const env = options.env ?? process.env;
  const config = loadBridgeConfig(env);
  let telemetry: Telemetry | undefined;
  const logger = jsonLogger({
    serviceName: SERVICE_NAME,
    level: loadLogLevel(env),
    ...(config.tracing !== 'off' ? { traceFields: () => telemetry?.logFields() } : {}),
  });
  if (config.tracing !== 'off')
    telemetry = await loadTelemetry({ mode: config.tracing, serviceName: SERVICE_NAME, env, log: logger });
  const bridge = createDeployedBridge(config, telemetry ? { aws: { instrument: telemetry.instrument } } : {});
  const handle = telemetry ? traced(bridge.handle, config.issuer, telemetry) : bridge.handle;
  return createProxyLambdaHandler(handle, logger);
}
