import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { HostedZoneRef } from '../api-domain.ts';
import type { FunctionLogLevel } from '../bundled-function.ts';
import type { McpAuthProps } from './auth-props.ts';

/**
 * A custom domain serving the endpoint (docs/operations.md): `https://<name>/mcp`, with the protected resource
 * metadata, the token audience and the authorization bridge's issuer on the same origin.
 */
export interface McpDomainProps {
  /** The domain name, e.g. `mcp.example.com` (lower case). Required. */
  readonly name: string;
  /**
   * An ACM certificate for `name` in the stack's region.
   * @default - a new certificate, validated through DNS in `hostedZone`
   */
  readonly certificateArn?: string;
  /**
   * The Route 53 public hosted zone `name` belongs to: it validates a new certificate and gets the alias record.
   * @default - none: give `certificateArn`, and point DNS for `name` at the stack's `DomainTarget` output
   */
  readonly hostedZone?: HostedZoneRef;
  /**
   * Serve only the domain: the API's generated `execute-api` URL answers 403.
   * @default false
   */
  readonly disableExecuteApiEndpoint?: boolean;
}

/**
 * The API in front of the MCP function (docs/streaming.md, and docs/tasks.md "Tasks or streaming?"). `http`: an
 * HTTP API that answers each request when the function returns (at most 30 s).
 * `rest-streaming`: a REST API that streams the function's answer as it is written, so progress arrives while a
 * tool runs (up to 15 minutes). Task tools work behind either.
 */
export type McpApiKind = 'http' | 'rest-streaming';

/** Every API kind, as the `api` context value names it. */
export const MCP_API_KINDS: readonly McpApiKind[] = ['http', 'rest-streaming'];

/**
 * Properties of an {@link McpEndpoint}; every field is optional. Settings the MCP function reads are resolved by
 * its own configuration (packages/server/src/config.ts); the others are passed to the construct that owns them. All
 * defaults live in packages/server/src/limits.ts.
 */
export interface McpEndpointProps {
  /**
   * Server name in `serverInfo` and on every log line (MCP_SERVER_NAME, POWERTOOLS_SERVICE_NAME).
   * @default 'mcp-lambda-template' (`Defaults.serverName`)
   */
  readonly serverName?: string;
  /**
   * Path of the MCP endpoint (MCP_PATH).
   * @default '/mcp' (`Defaults.mcpPath`)
   */
  readonly path?: string;
  /**
   * The API in front of the MCP function: `http` (an HTTP API, complete answers within 30 s) or `rest-streaming`
   * (a REST API that streams answers, progress included, for up to 15 minutes).
   * @default 'http'
   */
  readonly api?: McpApiKind;
  /**
   * API stage; `$default` serves `https://…/mcp`, a name such as `prod` serves `https://…/prod/mcp`. A REST API
   * always has a named stage.
   * @default '$default' for `http` (see McpHttpApi), 'prod' for `rest-streaming` (see McpRestApi)
   */
  readonly stageName?: string;
  /**
   * Browser origins allowed to call (MCP_ALLOWED_ORIGINS and API Gateway CORS), exact or `*`.
   * @default - none
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * API stage steady-state rate limit, requests per second.
   * @default 50 (see McpHttpApi)
   */
  readonly throttleRateLimit?: number;
  /**
   * API stage burst limit, requests.
   * @default 100 (see McpHttpApi)
   */
  readonly throttleBurstLimit?: number;
  /**
   * A content block above this many bytes goes to S3 and comes back as a resource_link (OFFLOAD_THRESHOLD_BYTES).
   * @default 32768 (`Defaults.offloadThresholdBytes`, applied by the function's configuration)
   */
  readonly offloadThresholdBytes?: number;
  /**
   * Days stored outputs live before the bucket's lifecycle rule deletes them (OFFLOAD_TTL_DAYS).
   * @default 7 (`Defaults.offloadTtlDays`)
   */
  readonly offloadTtlDays?: number;
  /**
   * Key prefix of stored outputs (OFFLOAD_PREFIX).
   * @default 'outputs/' (`Defaults.offloadPrefix`)
   */
  readonly offloadPrefix?: string;
  /**
   * Memory of the MCP function in MB.
   * @default 1024 (`Defaults.mcpMemoryMb`)
   */
  readonly mcpMemorySize?: number;
  /**
   * Time limit of the MCP function: at most 30 s with `api: 'http'` (how long an HTTP API waits for its
   * integration), at most 15 minutes with `api: 'rest-streaming'` (how long a REST API streams). A tool still runs
   * within its own budget (`timeoutMs`, MCP_TOOL_TIMEOUT_MS), which this limit caps.
   * @default Duration.seconds(28) (`Defaults.mcpFunctionTimeoutSeconds`); Duration.minutes(15) with
   * `rest-streaming` (`Defaults.streamingFunctionTimeoutSeconds`)
   */
  readonly mcpTimeout?: Duration;
  /**
   * Memory of the companion resources function in MB.
   * @default 512 (`Defaults.resourcesMemoryMb`)
   */
  readonly resourcesMemorySize?: number;
  /**
   * Time limit of the companion resources function; at most the MCP function's.
   * @default Duration.seconds(10) (`Defaults.resourcesFunctionTimeoutSeconds`)
   */
  readonly resourcesTimeout?: Duration;
  /**
   * Memory of the task worker function in MB.
   * @default 1024 (see TaskWorker)
   */
  readonly workerMemorySize?: number;
  /**
   * Time limit of one task run (the task worker's timeout), at most 15 minutes.
   * @default Duration.minutes(15) (see TaskWorker)
   */
  readonly workerTimeout?: Duration;
  /**
   * Entry file of the task worker function.
   * @default 'functions/worker/handler.ts' (see TaskWorker)
   */
  readonly workerEntry?: string;
  /**
   * Extra environment of the MCP function (and of the task worker, which runs the same tools), e.g.
   * `{ MCP_PAGE_SIZE: '50' }` (see packages/server/src/config.ts).
   * @default - none
   */
  readonly mcpEnvironment?: Readonly<Record<string, string>>;
  /**
   * Lowest log level written by both functions.
   * @default 'INFO' (see BundledFunction)
   */
  readonly logLevel?: FunctionLogLevel;
  /**
   * Retention of every log group (functions and API access logs).
   * @default logs.RetentionDays.ONE_MONTH (see BundledFunction and McpHttpApi)
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * What `cdk destroy` does with the output bucket, the log groups and a Cognito user pool.
   * @default RemovalPolicy.DESTROY (see OutputBucket)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Entry file of the MCP function, relative to the project root.
   * @default 'functions/mcp/handler.ts' (`FUNCTION_ENTRIES.mcp`); 'functions/mcp/streaming.ts'
   * (`FUNCTION_ENTRIES.mcpStreaming`) with `api: 'rest-streaming'`
   */
  readonly mcpEntry?: string;
  /**
   * Name of the function the MCP entry file exports for the chosen API.
   * @default 'handler' with `api: 'http'`, 'streamingHandler' with `api: 'rest-streaming'` (what the default
   * entry files export)
   */
  readonly mcpHandler?: string;
  /**
   * Entry file of the companion resources function.
   * @default 'functions/companion/handler.ts' (`FUNCTION_ENTRIES.resources`)
   */
  readonly resourcesEntry?: string;
  /**
   * Shell commands run in the project root before the MCP function is bundled.
   * @default - with the default `mcpEntry`, regenerate the precompiled tool validators and the views so a bundle
   * never carries stale ones; none otherwise
   */
  readonly mcpBeforeBundling?: readonly string[];
  /**
   * Actions run when an alarm changes state (e.g. an SNS topic).
   * @default - none
   */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
  /**
   * Who may call.
   * @default - nobody is asked for anything (as `{ mode: 'none' }`), and synth warns that no choice was made;
   * `infra/app.ts` always makes a choice (OAuth with a new Cognito issuer unless told otherwise)
   */
  readonly auth?: McpAuthProps;
  /**
   * Per-tool metrics: the MCP function writes each tool call's outcome, duration and bytes stored as CloudWatch
   * embedded metric format lines (MCP_TOOL_METRICS), and the dashboard and alarms show each tool.
   * @default true
   */
  readonly toolMetrics?: boolean;
  /**
   * CloudWatch namespace of the per-tool metrics (MCP_METRICS_NAMESPACE).
   * @default `MCP/<stack name>` (`Defaults.metricsNamespace` and the stack's name, so copies stay apart)
   */
  readonly metricsNamespace?: string;
  /**
   * The MCP function's own tool names, for the per-tool dashboard rows and alarms (known at synth time: the CDK app
   * passes the names of the tools it deploys); `read_output` is added when it is served.
   * @default - none: no per-tool rows or alarms
   */
  readonly toolNames?: readonly string[];
  /**
   * A custom domain for the endpoint, and for the authorization bridge with it.
   * @default - none: the API's generated `execute-api` URL
   */
  readonly domain?: McpDomainProps;
  /**
   * Put the API behind an AWS WAF web ACL (docs/operations.md): the AWS managed IP reputation list,
   * common rule set and known bad inputs, and a per-IP rate-based rule. AWS WAF protects REST API stages, not HTTP
   * APIs, so it needs `api: 'rest-streaming'`; with the Cognito authorization bridge it needs `domain` too (then the
   * REST API carries the bridge; without a domain the bridge would run on an HTTP API of its own, unprotected).
   * @default false
   */
  readonly waf?: boolean;
  /**
   * With `waf`: requests one client IP may send in 5 minutes before it is answered 429.
   * @default 3000 (`Defaults.wafRateLimit`)
   */
  readonly wafRateLimit?: number;
  /**
   * With `waf`: rules of the AWS managed common rule set that only count instead of blocking, e.g. its body rules
   * (`COMMON_RULE_SET_BODY_RULES`) when tools take code, paths or HTML (docs/operations.md).
   * @default ['SizeRestrictions_BODY']
   */
  readonly wafCountOnlyRules?: readonly string[];
  /**
   * Tracing (docs/operations.md, "Tracing"): the MCP, companion and worker functions (and the bridge) record
   * OpenTelemetry spans by the MCP conventions (MCP_TRACING=on) and send them to X-Ray's OTLP endpoint, signed with
   * their role (`xray:PutSpans`); Lambda active tracing and API Gateway tracing on a REST API stage (HTTP APIs have
   * none) put them in one trace with the API's and Lambda's own segments. X-Ray's OTLP endpoint needs CloudWatch
   * Transaction Search on in the account (the `TransactionSearch` construct, or the console).
   * @default false
   */
  readonly tracing?: boolean;
}
