import { Stack, Token, type Duration } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { spanExportEnvironment } from '../span-export.ts';
import { READ_OUTPUT_TOOL, loadConfig, type Config } from '@mcp-lambda/server/lambda';
import { Defaults, Platform, Ranges } from '@mcp-lambda/server/limits';
import {
  DEFAULT_MCP_TIMEOUT,
  DEFAULT_RESOURCES_TIMEOUT,
  DEFAULT_STREAMING_MCP_TIMEOUT,
} from '../defaults.ts';
import { MCP_API_KINDS, type McpApiKind, type McpEndpointProps } from './props.ts';

/** What the parts of an endpoint share, resolved once from its props: defaults applied, every value checked. */
export interface EndpointSettings {
  /** Server name in `serverInfo`, and the root of every function's service name. */
  readonly serverName: string;
  /** The API kind in front of the MCP function. */
  readonly api: McpApiKind;
  /** Whether the streaming REST API serves the endpoint. */
  readonly streaming: boolean;
  /** Time limit of the MCP function. */
  readonly mcpTimeout: Duration;
  /** Time limit of the companion resources function. */
  readonly resourcesTimeout: Duration;
  /** The settings the MCP function and the task worker (which runs the same tools) share, those that are set. */
  readonly environment: Readonly<Record<string, string>>;
  /** The per-tool metrics settings, the MCP function's alone. */
  readonly metricsEnvironment: Readonly<Record<string, string>>;
  /** The CloudWatch namespace of the endpoint's own metrics (per-tool metrics, failed call state writes). */
  readonly metricsNamespace: string;
  /** The MCP function's configuration of these settings, read as the function will read it. */
  readonly config: Config;
}

/** Environment variables for the settings that are set; unset ones are left to the function's own defaults. */
export function environmentOf(settings: Record<string, string | number | undefined>): Record<string, string> {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

/** The function's configuration of an environment, or the configuration error as a synth error. */
export function configOf(environment: Record<string, string>): Config {
  try {
    return loadConfig(environment);
  } catch (error) {
    throw new Error(`McpEndpoint: ${(error as Error).message}`, { cause: error });
  }
}

/** A function's memory, checked against what Lambda allows. */
export function checkMemory(name: string, mb: number): number {
  const { min, max } = Ranges.memoryMb;
  if (!Number.isInteger(mb) || mb < min || mb > max)
    throw new Error(`McpEndpoint: ${name} must be an integer from ${min} to ${max} MB (got ${mb})`);
  return mb;
}

function checkTimeouts(api: McpApiKind, mcpTimeout: Duration, resourcesTimeout: Duration): void {
  const [limit, why] =
    api === 'http'
      ? [Platform.httpApiIntegrationTimeoutSeconds, 'how long an HTTP API waits for its integration']
      : [Platform.restStreamingMaxSeconds, 'how long a REST API streams a response'];
  if (mcpTimeout.toSeconds() > limit)
    throw new Error(`McpEndpoint: mcpTimeout must be at most ${limit} seconds with api "${api}" (${why})`);
  if (resourcesTimeout.toMilliseconds() > mcpTimeout.toMilliseconds())
    throw new Error(
      'McpEndpoint: resourcesTimeout must be at most mcpTimeout (the MCP function waits for it)',
    );
}

/** The endpoint's metrics namespace: the one given, else one of the stack's own so copies stay apart. */
function metricsNamespaceOf(scope: Construct, props: McpEndpointProps): string {
  const stackName = Stack.of(scope).stackName;
  return (
    props.metricsNamespace ??
    (Token.isUnresolved(stackName) ? Defaults.metricsNamespace : `${Defaults.metricsNamespace}/${stackName}`)
  );
}

/** The per-tool metrics settings: on by default, in the endpoint's namespace. */
function metricsEnvironmentOf(props: McpEndpointProps, metricsNamespace: string): Record<string, string> {
  const toolMetrics = props.toolMetrics ?? true;
  return environmentOf({
    MCP_TOOL_METRICS: toolMetrics ? 'on' : undefined,
    MCP_METRICS_NAMESPACE: toolMetrics ? metricsNamespace : undefined,
  });
}

/**
 * The endpoint's settings. Those the MCP function reads are resolved by the function's own configuration
 * (`loadConfig`, which fails the synth on a bad value instead of the first request), so the API route and the
 * bucket's lifecycle rule and grants built from them always agree with the function.
 */
export function endpointSettings(scope: Construct, props: McpEndpointProps): EndpointSettings {
  const serverName = props.serverName ?? Defaults.serverName;
  const api = props.api ?? 'http';
  if (!MCP_API_KINDS.includes(api))
    throw new Error(
      `McpEndpoint: api must be one of ${MCP_API_KINDS.join(', ')} (got ${JSON.stringify(props.api)})`,
    );
  const streaming = api === 'rest-streaming';
  const mcpTimeout = props.mcpTimeout ?? (streaming ? DEFAULT_STREAMING_MCP_TIMEOUT : DEFAULT_MCP_TIMEOUT);
  const resourcesTimeout = props.resourcesTimeout ?? DEFAULT_RESOURCES_TIMEOUT;
  checkTimeouts(api, mcpTimeout, resourcesTimeout);
  const environment = environmentOf({
    MCP_SERVER_NAME: serverName,
    MCP_PATH: props.path,
    MCP_ALLOWED_ORIGINS: props.allowedOrigins?.length ? props.allowedOrigins.join(',') : undefined,
    OFFLOAD_PREFIX: props.offloadPrefix,
    OFFLOAD_TTL_DAYS: props.offloadTtlDays,
    OFFLOAD_THRESHOLD_BYTES: props.offloadThresholdBytes,
    ...(props.tracing ? spanExportEnvironment('MCP_TRACING') : {}),
  });
  const metricsNamespace = metricsNamespaceOf(scope, props);
  const metricsEnvironment = metricsEnvironmentOf(props, metricsNamespace);
  const config = configOf({ ...props.mcpEnvironment, ...environment, ...metricsEnvironment });
  return {
    serverName,
    api,
    streaming,
    mcpTimeout,
    resourcesTimeout,
    environment,
    metricsEnvironment,
    metricsNamespace,
    config,
  };
}

/** The tools the MCP function serves, as far as synth can know them (see `McpEndpointProps.toolNames`). */
export function toolNamesOf(props: McpEndpointProps, config: Config): readonly string[] {
  if (!props.toolNames) return [];
  // The endpoint always deploys the companion, so read_output is served unless OFFLOAD_READ_TOOL turns it off.
  const served = config.offload.readTool && !props.toolNames.includes(READ_OUTPUT_TOOL);
  return [...props.toolNames, ...(served ? [READ_OUTPUT_TOOL] : [])];
}
