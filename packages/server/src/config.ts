import { tracingMode, type TracingMode } from './telemetry/telemetry.ts';
import { int, list, onOff, scopes, secret, str, url, type Env } from './config-values.ts';
import { DEFAULT_TOOL_TIMEOUT_MS, Defaults, Ranges } from './limits.ts';
import { sessionKeyStrings } from './sessions/key-strings.ts';

/**
 * Configuration, read once per container from the environment, validated and typed. Nothing else in the code
 * reads `process.env`. Every variable is listed with its default in the README's configuration table.
 */

export interface Config {
  serverName: string;
  serverVersion: string;
  /** MCP endpoint path. */
  mcpPath: string;
  /** Allowed browser origins (exact, `scheme://host:*`, or `*`). */
  allowedOrigins: string[];
  /** Allowed Host header values; undefined = any (API Gateway pins the host). */
  allowedHosts: string[] | undefined;
  maxBodyBytes: number;
  toolTimeoutMs: number;
  pageSize: number;
  listCacheTtlMs: number;
  /**
   * Key sealing `requestState` of 2026-07-28 multi round-trip requests (MCP_REQUEST_STATE_SECRET), an override;
   * undefined = keys derived from the session keys, or random per instance without them.
   */
  requestStateSecret: string | undefined;
  offload: OffloadConfig;
  tasks: TasksConfig;
  auth: AuthConfig;
  /** Per-tool metrics as CloudWatch embedded metric format lines; undefined = off (the stack turns them on). */
  toolMetrics: ToolMetricsConfig | undefined;
  /** How the function traces (MCP_TRACING: `off`, `propagation`, `on` or `console`); off by default. */
  tracing: TracingMode;
  /** Handshake-era sessions (docs/asking.md); undefined = no `Mcp-Session-Id` is issued. */
  sessions: SessionConfig | undefined;
  /** Mid-call questions (docs/asking.md): where the call state waits. */
  asking: AskingConfig;
}

/** The keys sealing session ids: exactly one of `secrets` and `secretArn`. */
export interface SessionConfig {
  /** Key strings, newest first (MCP_SESSION_SECRET, comma-separated, each at least 32 characters). */
  secrets: string[] | undefined;
  /** A Secrets Manager secret holding them (MCP_SESSION_SECRET_ARN; the deployed stack creates one). */
  secretArn: string | undefined;
  /** How long a session lives (MCP_SESSION_TTL_MS). */
  ttlMs: number;
}

/** Where the call state waits: mid-call questions, cancellations, cut streams (handshake era, streaming API). */
export interface AskingConfig {
  /** DynamoDB table (MCP_CALL_STATE_TABLE); unset = this process's memory (one instance only: local use). */
  table: string | undefined;
  /** Set when only MCP_ASK_TABLE (the name an older construct set) names the table: a cold start warns once. */
  tableFromAskTable?: true;
  /** How often a waiting call reads the table, and a resumed stream its log (MCP_ASK_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** After how long an uncut resumable stream starts its log too (MCP_STREAM_LOG_AFTER_MS, docs/streaming.md). */
  streamLogAfterMs: number;
}

/** Per-tool metrics (docs/operations.md "Per-tool metrics"): where they go, and the log level their lines carry. */
export interface ToolMetricsConfig {
  /** CloudWatch namespace. */
  namespace: string;
  /**
   * Level written on each metric line: Lambda's log-level filter (AWS_LAMBDA_LOG_LEVEL) treats a line without one
   * as INFO, so above INFO the lines carry the filter's own level and are kept.
   */
  logLevel: 'INFO' | 'WARN' | 'ERROR' | 'FATAL';
}

/** Where task records live and who runs tasks (docs/tasks.md). */
interface TasksConfig {
  /** DynamoDB table of task records; unset = records kept in this process (local only). */
  table: string | undefined;
  /** Worker function each run is handed to (deployed stack); unset = runs in this process. */
  workerFunctionName: string | undefined;
  /** DynamoDB endpoint override (a local DynamoDB-compatible server). */
  dynamodbEndpoint: string | undefined;
  /** `ttlMs` of every task. */
  ttlMs: number;
  /** `pollIntervalMs` suggested to clients. */
  pollIntervalMs: number;
}

/**
 * Who may call (docs/authorization.md). `none` lets anyone who reaches the endpoint call it (local default);
 * `oauth` requires a valid access token from one issuer on every request.
 */
export type AuthConfig =
  | { mode: 'none' }
  | {
      mode: 'oauth';
      /** Issuer identifier (`iss`); its metadata names the key set unless `jwksUrl` is given. */
      issuer: string;
      /** This endpoint's public URL: the RFC 9728 `resource` and the default token audience (RFC 8707). */
      resource: string;
      /** Audiences accepted in `aud`. */
      audiences: string[];
      /** Scopes every request needs. */
      requiredScopes: string[];
      /** Key set URL override; undefined = discovered from the issuer's metadata. */
      jwksUrl: string | undefined;
      /** Accepted signature algorithms; undefined = the authenticator's default (asymmetric only). */
      algorithms: string[] | undefined;
      /** Longest an accepted token may still be valid, in seconds. */
      maxTokenLifetimeSeconds: number;
      /** Where challenges point for the metadata; undefined = its RFC 9728 location, derived from `resource`. */
      metadataUrl: string | undefined;
    };

/** Where and when large tool outputs go to storage (issue: large outputs as resource links). */
export interface OffloadConfig {
  /** Bucket for stored outputs; unset = offloading disabled. */
  bucket: string | undefined;
  /** Key prefix inside the bucket. */
  prefix: string;
  /** A content block above this many bytes is stored and linked. */
  thresholdBytes: number;
  /** Lifetime of stored outputs in days (the bucket's lifecycle rule expires them). */
  ttlDays: number;
  /** Name of the companion resources function, for direct invoke (deployed stack only). */
  resourcesFunctionName: string | undefined;
  /** S3 endpoint override (local S3-compatible server). */
  s3Endpoint: string | undefined;
  /** Register the built-in `read_output` tool that pages through stored outputs. */
  readTool: boolean;
}

/** An origin as browsers send it: scheme, host and optional port (or `:*`), no path and no trailing slash. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:(\d{1,5}|\*))?$/i;
/** A Host header value: a name or bracketed IPv6 address, optional port (or `:*`). */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:(\d{1,5}|\*))?$/i;

function hosts(env: Env): string[] | undefined {
  const values = list(env, 'MCP_ALLOWED_HOSTS', HOST);
  // An empty list would refuse every request; say so rather than serve nothing.
  if (values?.length === 0)
    throw new Error('Configuration: MCP_ALLOWED_HOSTS is set but names no host; unset it to allow any Host');
  return values;
}

const AUTH_VARIABLES = [
  'MCP_AUTH_ISSUER',
  'MCP_AUTH_RESOURCE',
  'MCP_AUTH_AUDIENCE',
  'MCP_AUTH_REQUIRED_SCOPES',
  'MCP_AUTH_JWKS_URL',
  'MCP_AUTH_ALGORITHMS',
  'MCP_AUTH_MAX_TOKEN_LIFETIME_SECONDS',
  'MCP_AUTH_METADATA_URL',
];

function auth(env: Env): AuthConfig {
  const mode = env.MCP_AUTH_MODE?.trim() || 'none';
  if (mode === 'none') {
    // Half a configuration must not silently leave the server open.
    const stray = AUTH_VARIABLES.find((name) => env[name]?.trim());
    if (stray)
      throw new Error(
        `Configuration: ${stray} is set but MCP_AUTH_MODE is not "oauth"; set MCP_AUTH_MODE=oauth`,
      );
    return { mode: 'none' };
  }
  if (mode !== 'oauth')
    throw new Error(`Configuration: MCP_AUTH_MODE must be "none" or "oauth" (got ${JSON.stringify(mode)})`);
  const issuer = url(env, 'MCP_AUTH_ISSUER');
  const resource = url(env, 'MCP_AUTH_RESOURCE');
  if (!issuer) throw new Error('Configuration: MCP_AUTH_MODE=oauth needs MCP_AUTH_ISSUER');
  if (!resource)
    throw new Error(
      'Configuration: MCP_AUTH_MODE=oauth needs MCP_AUTH_RESOURCE (the public URL of this endpoint)',
    );
  const audiences = list(env, 'MCP_AUTH_AUDIENCE', /^[^\s,]+$/);
  const algorithms = list(env, 'MCP_AUTH_ALGORITHMS', /^[A-Za-z0-9]+$/);
  return {
    mode: 'oauth',
    issuer,
    resource,
    audiences: audiences?.length ? audiences : [resource],
    requiredScopes: scopes(env, 'MCP_AUTH_REQUIRED_SCOPES'),
    jwksUrl: url(env, 'MCP_AUTH_JWKS_URL'),
    algorithms: algorithms?.length ? algorithms : undefined,
    maxTokenLifetimeSeconds: int(
      env,
      'MCP_AUTH_MAX_TOKEN_LIFETIME_SECONDS',
      Defaults.maxTokenLifetimeSeconds,
      Ranges.maxTokenLifetimeSeconds.min,
      Ranges.maxTokenLifetimeSeconds.max,
    ),
    metadataUrl: url(env, 'MCP_AUTH_METADATA_URL'),
  };
}

function tasks(env: Env, range: (name: string, fallback: number, r: { min: number; max: number }) => number) {
  const table = env.TASKS_TABLE || undefined;
  const workerFunctionName = env.TASKS_WORKER_FUNCTION_NAME || undefined;
  // A worker in another process cannot see records kept in this one.
  if (workerFunctionName && !table)
    throw new Error(
      'Configuration: TASKS_WORKER_FUNCTION_NAME needs TASKS_TABLE (the worker shares the records)',
    );
  return {
    table,
    workerFunctionName,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    ttlMs: range('TASKS_TTL_MS', Defaults.taskTtlMs, Ranges.taskTtlMs),
    pollIntervalMs: range('TASKS_POLL_INTERVAL_MS', Defaults.taskPollIntervalMs, Ranges.taskPollIntervalMs),
  };
}

/** A CloudWatch namespace: 1–255 of letters, digits and `.-_/#: `, not starting with `AWS/` (AWS's own). */
const NAMESPACE = /^(?!AWS\/)[A-Za-z0-9.\-_/#: ]{1,255}$/;

function toolMetrics(env: Env): ToolMetricsConfig | undefined {
  if (!onOff(env, 'MCP_TOOL_METRICS', false)) return undefined;
  const level = env.AWS_LAMBDA_LOG_LEVEL?.trim().toUpperCase();
  return {
    namespace: str(env, 'MCP_METRICS_NAMESPACE', Defaults.metricsNamespace, NAMESPACE),
    logLevel: level === 'WARN' || level === 'ERROR' || level === 'FATAL' ? level : 'INFO',
  };
}

const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/;

function sessions(
  env: Env,
  range: (name: string, fallback: number, r: { min: number; max: number }) => number,
) {
  const value = env.MCP_SESSION_SECRET || undefined;
  const secretArn = env.MCP_SESSION_SECRET_ARN?.trim() || undefined;
  if (value === undefined && secretArn === undefined) return undefined;
  if (value !== undefined && secretArn !== undefined)
    throw new Error('Configuration: set MCP_SESSION_SECRET or MCP_SESSION_SECRET_ARN, not both');
  if (secretArn !== undefined && !SECRET_ARN.test(secretArn))
    throw new Error('Configuration: MCP_SESSION_SECRET_ARN must be the ARN of a Secrets Manager secret');
  let secrets: string[] | undefined;
  try {
    secrets = value === undefined ? undefined : sessionKeyStrings(value);
  } catch (error) {
    throw new Error(`Configuration: MCP_SESSION_SECRET: ${(error as Error).message}`, { cause: error });
  }
  return {
    secrets,
    secretArn,
    ttlMs: range('MCP_SESSION_TTL_MS', Defaults.sessionTtlMs, Ranges.sessionTtlMs),
  };
}

/** The call state's table: MCP_CALL_STATE_TABLE, else MCP_ASK_TABLE (its name before the rename). */
function callStateTable(env: Env): Pick<AskingConfig, 'table' | 'tableFromAskTable'> {
  const table = env.MCP_CALL_STATE_TABLE || undefined;
  if (table !== undefined || !env.MCP_ASK_TABLE) return { table };
  return { table: env.MCP_ASK_TABLE, tableFromAskTable: true };
}

/** Reads and validates the configuration; throws with the variable's name when a value is invalid. */
export function loadConfig(env: Env = process.env): Config {
  const range = (name: string, fallback: number, r: { min: number; max: number }) =>
    int(env, name, fallback, r.min, r.max);
  return {
    serverName: str(env, 'MCP_SERVER_NAME', Defaults.serverName),
    serverVersion: str(env, 'MCP_SERVER_VERSION', Defaults.serverVersion),
    mcpPath: str(env, 'MCP_PATH', Defaults.mcpPath, /^\/[A-Za-z0-9/_.-]*$/),
    allowedOrigins: list(env, 'MCP_ALLOWED_ORIGINS', ORIGIN) ?? [],
    allowedHosts: hosts(env),
    maxBodyBytes: range('MCP_MAX_BODY_BYTES', Defaults.maxBodyBytes, Ranges.maxBodyBytes),
    toolTimeoutMs: range('MCP_TOOL_TIMEOUT_MS', DEFAULT_TOOL_TIMEOUT_MS, Ranges.toolTimeoutMs),
    pageSize: range('MCP_PAGE_SIZE', Defaults.pageSize, Ranges.pageSize),
    listCacheTtlMs: range('MCP_LIST_CACHE_TTL_MS', Defaults.listCacheTtlMs, Ranges.listCacheTtlMs),
    requestStateSecret: secret(env, 'MCP_REQUEST_STATE_SECRET'),
    offload: {
      bucket: env.OFFLOAD_BUCKET || undefined,
      prefix: str(env, 'OFFLOAD_PREFIX', Defaults.offloadPrefix, /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/$/),
      thresholdBytes: range(
        'OFFLOAD_THRESHOLD_BYTES',
        Defaults.offloadThresholdBytes,
        Ranges.offloadThresholdBytes,
      ),
      ttlDays: range('OFFLOAD_TTL_DAYS', Defaults.offloadTtlDays, Ranges.offloadTtlDays),
      resourcesFunctionName: env.RESOURCES_FUNCTION_NAME || undefined,
      s3Endpoint: env.S3_ENDPOINT || undefined,
      readTool: onOff(env, 'OFFLOAD_READ_TOOL', true),
    },
    tasks: tasks(env, range),
    auth: auth(env),
    toolMetrics: toolMetrics(env),
    tracing: tracingMode(env, 'MCP_TRACING'),
    sessions: sessions(env, range),
    asking: {
      ...callStateTable(env),
      pollIntervalMs: range('MCP_ASK_POLL_INTERVAL_MS', Defaults.askPollIntervalMs, Ranges.askPollIntervalMs),
      streamLogAfterMs: range('MCP_STREAM_LOG_AFTER_MS', Defaults.streamLogAfterMs, Ranges.streamLogAfterMs),
    },
  };
}
