import { Annotations, Duration, Stack, Token, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { metadataPaths, metadataUrl } from '@mcp-lambda/server/auth';
import { loadConfig, type Config } from '@mcp-lambda/server';
import { Defaults, Platform, Ranges } from '@mcp-lambda/server';
import { FUNCTION_ENTRIES, GENERATE_COMMANDS } from './bundling.ts';
import { DEFAULT_MCP_TIMEOUT, DEFAULT_RESOURCES_TIMEOUT, DEFAULT_STREAMING_MCP_TIMEOUT } from './defaults.ts';
import { BRIDGE_PATHS } from '@mcp-lambda/bridge';
import { READ_OUTPUT_TOOL } from '@mcp-lambda/server';
import { ApiDomain, type HostedZoneRef } from './api-domain.ts';
import { AskRendezvous } from './ask-rendezvous.ts';
import { SessionSecret } from './session-secret.ts';
import { ApiFirewall } from './api-firewall.ts';
import { AuthorizationApi } from './authorization-api.ts';
import { AuthorizationBridge } from './authorization-bridge.ts';
import { BundledFunction, type FunctionLogLevel } from './bundled-function.ts';
import { CognitoIssuer, type CognitoIssuerProps } from './cognito-issuer.ts';
import { McpHttpApi } from './mcp-http-api.ts';
import { McpMonitoring, type ApiStageMetrics } from './mcp-monitoring.ts';
import { McpRestApi } from './mcp-rest-api.ts';
import { OutputBucket } from './output-bucket.ts';
import { TaskWorker } from './task-worker.ts';

/** `auth: oauth`: every request needs an access token for this endpoint from one issuer (MCP_AUTH_*). */
export interface McpOAuthProps {
  /** Tokens are required. Required. */
  readonly mode: 'oauth';
  /**
   * Issuer URL of an existing authorization server (`iss` of its tokens). Exactly one of `issuer` and `cognito`.
   * @default - none: `cognito` must be given
   */
  readonly issuer?: string;
  /**
   * Create a Cognito user pool for sign-in, behind the authorization bridge (see {@link AuthorizationBridge} and
   * {@link CognitoIssuer}): the bridge on this API is then the issuer MCP clients see. Exactly one of `issuer` and
   * `cognito`.
   * @default - none: `issuer` must be given
   */
  readonly cognito?: Omit<CognitoIssuerProps, 'callbackUrl' | 'removalPolicy'>;
  /**
   * The endpoint's public URL: RFC 9728 `resource` and the token audience. Set it when a custom domain serves the
   * endpoint.
   * @default - the API URL of the endpoint
   */
  readonly resource?: string;
  /**
   * Audiences accepted in tokens.
   * @default - the resource URL only
   */
  readonly audiences?: readonly string[];
  /**
   * Scopes every request needs; with `cognito`, also the scopes the bridge grants.
   * @default - none; with `cognito`, ['mcp'] (`Defaults.bridgeScope`)
   */
  readonly requiredScopes?: readonly string[];
  /**
   * Key set URL.
   * @default - discovered from the issuer's metadata
   */
  readonly jwksUrl?: string;
}

/**
 * Who may call the endpoint (docs/authorization.md). `none`: anyone who has the URL. `oauth`: every request
 * needs an access token for this endpoint from one issuer, validated inside the MCP function.
 */
export type McpAuthProps = { readonly mode: 'none' } | McpOAuthProps;

/** What an endpoint with `auth: oauth` tells its users. */
export interface McpEndpointAuth {
  /** The issuer clients get tokens from. */
  readonly issuer: string;
  /** The resource URL tokens must be issued for. */
  readonly resource: string;
  /** Where the RFC 9728 metadata document is served. */
  readonly metadataUrl: string;
  /** The Cognito user pool people sign in with, when the endpoint created one. */
  readonly cognito?: CognitoIssuer;
  /** The authorization bridge in front of it (the issuer clients see). */
  readonly bridge?: AuthorizationBridge;
}

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
 * The API in front of the MCP function (docs/streaming.md, and docs/tasks.md "Tasks or streaming?"
 * under "Tasks"). `http`: an HTTP API that answers each request when the function returns (at most 30 s).
 * `rest-streaming`: a REST API that streams the function's answer as it is written, so progress arrives while a
 * tool runs (up to 15 minutes). Task tools work behind either.
 */
export type McpApiKind = 'http' | 'rest-streaming';

/** Every API kind, as the `api` context value names it. */
export const MCP_API_KINDS: readonly McpApiKind[] = ['http', 'rest-streaming'];

/**
 * Properties of an {@link McpEndpoint}; every field is optional. Settings the MCP function reads are resolved by
 * its own configuration (packages/server/src/config.ts); the others are passed to the construct that owns them. All defaults live
 * in packages/server/src/limits.ts.
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
   * AWS X-Ray tracing (docs/operations.md): Lambda active tracing on the MCP, companion and worker functions, which
   * capture their AWS SDK calls (MCP_TRACING), and API Gateway tracing on a REST API stage (HTTP APIs have none),
   * so a tool call, its S3 writes and the companion invoke are one trace.
   * @default false
   */
  readonly tracing?: boolean;
}

/** The endpoint settings the authorization wiring passes on. */
type AuthorizeOptions = Pick<
  McpEndpointProps,
  'removalPolicy' | 'throttleRateLimit' | 'throttleBurstLimit' | 'logRetention' | 'tracing'
> & { serverName: string };

/** Environment variables for the settings that are set; unset ones are left to the function's own defaults. */
function environmentOf(settings: Record<string, string | number | undefined>): Record<string, string> {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined);
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

/** The function's configuration of an environment, or the configuration error as a synth error. */
function configOf(environment: Record<string, string>): Config {
  try {
    return loadConfig(environment);
  } catch (error) {
    throw new Error(`McpEndpoint: ${(error as Error).message}`);
  }
}

/** The tools the MCP function serves, as far as synth can know them (see `McpEndpointProps.toolNames`). */
function toolNamesOf(props: McpEndpointProps, config: Config): readonly string[] {
  if (!props.toolNames) return [];
  // The endpoint always deploys the companion, so read_output is served unless OFFLOAD_READ_TOOL turns it off.
  const served = config.offload.readTool && !props.toolNames.includes(READ_OUTPUT_TOOL);
  return [...props.toolNames, ...(served ? [READ_OUTPUT_TOOL] : [])];
}

function checkMemory(name: string, mb: number): number {
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

/**
 * A hosted, stateless MCP server: the output bucket, the companion resources function, the task table and worker,
 * the MCP function, the API in front of it (an HTTP API, or a streaming REST API) and the monitoring around them.
 * Embed it in any CDK app; `McpStack` is one such app.
 *
 * The settings the MCP function reads (path, prefix, TTL, …) are resolved once, by the function's own
 * configuration (`loadConfig`, which also fails the synth on a bad value instead of the first request); the API
 * route and the bucket's lifecycle rule and grants are built with those values, so they always agree.
 */
export class McpEndpoint extends Construct {
  /** The MCP endpoint URL clients connect to. */
  readonly url: string;
  /** The bucket of stored outputs. */
  readonly outputs: OutputBucket;
  /** The MCP function (a `BundledFunction`): `endpoint.mcpFunction.functionName`, `.logGroup`, `.role`, … */
  readonly mcpFunction: BundledFunction;
  /** The companion function that reads stored outputs for `resources/read`. */
  readonly resourcesFunction: BundledFunction;
  /** The task table and the worker function that runs tasks (the tasks extension). */
  readonly tasks: TaskWorker;
  /** The API kind in front of the MCP function. */
  readonly api: McpApiKind;
  /** The HTTP API in front of the MCP function, with `api: 'http'`. */
  readonly httpApi?: McpHttpApi;
  /** The streaming REST API in front of the MCP function, with `api: 'rest-streaming'`. */
  readonly restApi?: McpRestApi;
  /** The custom domain serving the endpoint, when one is configured. */
  readonly domain?: ApiDomain;
  /** The web application firewall in front of the REST API, with `waf`. */
  readonly firewall?: ApiFirewall;
  /** Alarms and dashboard. */
  readonly monitoring: McpMonitoring;
  /** Issuer, resource and metadata URL when `auth` is `oauth`; undefined when the endpoint is open. */
  readonly auth?: McpEndpointAuth;
  /** The key sealing handshake-era session ids; undefined when `mcpEnvironment` brings its own. */
  readonly sessions?: SessionSecret;
  /** Where mid-call questions wait for their answers, with `api: 'rest-streaming'` (the only API that asks). */
  readonly asking?: AskRendezvous;

  constructor(scope: Construct, id: string, props: McpEndpointProps = {}) {
    super(scope, id);
    const serverName = props.serverName ?? Defaults.serverName;
    this.api = props.api ?? 'http';
    if (!MCP_API_KINDS.includes(this.api))
      throw new Error(
        `McpEndpoint: api must be one of ${MCP_API_KINDS.join(', ')} (got ${JSON.stringify(props.api)})`,
      );
    const streaming = this.api === 'rest-streaming';
    const mcpTimeout = props.mcpTimeout ?? (streaming ? DEFAULT_STREAMING_MCP_TIMEOUT : DEFAULT_MCP_TIMEOUT);
    const resourcesTimeout = props.resourcesTimeout ?? DEFAULT_RESOURCES_TIMEOUT;
    checkTimeouts(this.api, mcpTimeout, resourcesTimeout);
    const settings = environmentOf({
      MCP_SERVER_NAME: serverName,
      MCP_PATH: props.path,
      MCP_ALLOWED_ORIGINS: props.allowedOrigins?.length ? props.allowedOrigins.join(',') : undefined,
      OFFLOAD_PREFIX: props.offloadPrefix,
      OFFLOAD_TTL_DAYS: props.offloadTtlDays,
      OFFLOAD_THRESHOLD_BYTES: props.offloadThresholdBytes,
      MCP_TRACING: props.tracing ? 'on' : undefined,
    });
    const firewall = this.checkedFirewall(props);
    if (firewall) this.firewall = firewall;
    const tracing = props.tracing ? lambda.Tracing.ACTIVE : undefined;
    const toolMetrics = props.toolMetrics ?? true;
    const stackName = Stack.of(this).stackName;
    const metricsNamespace =
      props.metricsNamespace ??
      (Token.isUnresolved(stackName)
        ? Defaults.metricsNamespace
        : `${Defaults.metricsNamespace}/${stackName}`);
    const metricsEnvironment = environmentOf({
      MCP_TOOL_METRICS: toolMetrics ? 'on' : undefined,
      MCP_METRICS_NAMESPACE: toolMetrics ? metricsNamespace : undefined,
    });
    const config = configOf({ ...props.mcpEnvironment, ...settings, ...metricsEnvironment });
    const shared = {
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      logRemovalPolicy: props.removalPolicy,
    };

    this.outputs = new OutputBucket(this, 'Outputs', {
      prefix: config.offload.prefix,
      ttlDays: config.offload.ttlDays,
      removalPolicy: props.removalPolicy,
    });
    const offloadEnvironment = {
      OFFLOAD_BUCKET: this.outputs.bucketName,
      OFFLOAD_PREFIX: this.outputs.prefix,
      OFFLOAD_TTL_DAYS: String(this.outputs.ttlDays),
    };

    this.resourcesFunction = new BundledFunction(this, 'ResourcesFunction', {
      ...shared,
      entry: props.resourcesEntry ?? FUNCTION_ENTRIES.resources,
      description: 'Companion of the MCP function: reads stored tool outputs for resources/read',
      memorySize: checkMemory('resourcesMemorySize', props.resourcesMemorySize ?? Defaults.resourcesMemoryMb),
      timeout: resourcesTimeout,
      serviceName: `${serverName}-resources`,
      ...(tracing ? { tracing } : {}),
      environment: {
        MCP_SERVER_NAME: serverName,
        ...offloadEnvironment,
        ...(props.tracing ? { MCP_TRACING: 'on' } : {}),
      },
    });
    this.outputs.grantReadOutputs(this.resourcesFunction);

    this.tasks = new TaskWorker(this, 'Tasks', {
      outputs: this.outputs,
      environment: { ...props.mcpEnvironment, ...settings },
      entry: props.workerEntry,
      memorySize: props.workerMemorySize,
      timeout: props.workerTimeout,
      // The worker bundles the MCP function's tools, their generated validators and the views they link.
      beforeBundling:
        props.mcpBeforeBundling ?? (props.workerEntry === undefined ? [...GENERATE_COMMANDS] : []),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      alarmActions: props.alarmActions,
      ...(tracing ? { tracing } : {}),
    });

    const mcpEnvironment = {
      ...props.mcpEnvironment,
      ...settings,
      ...metricsEnvironment,
      MCP_PATH: config.mcpPath,
      ...offloadEnvironment,
      RESOURCES_FUNCTION_NAME: this.resourcesFunction.functionName,
      TASKS_TABLE: this.tasks.table.tableName,
      TASKS_WORKER_FUNCTION_NAME: this.tasks.workerFunction.functionName,
    };
    this.mcpFunction = new BundledFunction(this, 'McpFunction', {
      ...shared,
      entry: props.mcpEntry ?? (streaming ? FUNCTION_ENTRIES.mcpStreaming : FUNCTION_ENTRIES.mcp),
      beforeBundling: props.mcpBeforeBundling ?? (props.mcpEntry === undefined ? [...GENERATE_COMMANDS] : []),
      description: streaming
        ? 'Stateless MCP server (Streamable HTTP, streamed responses)'
        : 'Stateless MCP server (Streamable HTTP, JSON responses)',
      handler: props.mcpHandler ?? (streaming ? 'streamingHandler' : 'handler'),
      memorySize: checkMemory('mcpMemorySize', props.mcpMemorySize ?? Defaults.mcpMemoryMb),
      timeout: mcpTimeout,
      serviceName: serverName,
      ...(tracing ? { tracing } : {}),
      environment: mcpEnvironment,
    });
    if (tracing)
      for (const fn of [this.mcpFunction, this.resourcesFunction, this.tasks.workerFunction])
        Validations.of(fn.role!).acknowledge({
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, the only X-Ray actions the ' +
            'function uses; X-Ray supports no resource-level permissions for them, so the resource is "*".',
        });
    this.outputs.grantStoreOutputs(this.mcpFunction);
    this.tasks.grantRecords(this.mcpFunction);
    this.tasks.grantStart(this.mcpFunction);
    // Exactly the function's ARN: `grantInvoke` would add its versions and aliases (`<arn>:*`) as well.
    iam.Grant.addToPrincipal({
      grantee: this.mcpFunction,
      actions: ['lambda:InvokeFunction'],
      resourceArns: [this.resourcesFunction.functionArn],
    });
    const asking = this.wireAsking(props, streaming, metricsNamespace);
    if (asking.sessions) this.sessions = asking.sessions;
    if (asking.rendezvous) this.asking = asking.rendezvous;

    // One source of truth for the public URL: the custom domain when there is one (its mapping serves the stage at
    // the root), else the API's generated URL, known only after deployment.
    const domainUrl = props.domain ? `https://${props.domain.name}${config.mcpPath}` : undefined;
    const oauth = this.chosenOAuth(props, domainUrl);
    const resource = oauth?.resource ?? domainUrl;
    // RFC 9728 paths of the metadata document as the function sees them; the API URL is not known before
    // deployment, but its path is (a REST API's URL starts with its stage, which the function does not see).
    const stagePrefix = streaming ? `/${props.stageName ?? Defaults.restStageName}` : '';
    const wellKnownPaths = oauth
      ? metadataPaths(
          resource !== undefined && !Token.isUnresolved(resource)
            ? resource
            : `https://endpoint.invalid${stagePrefix}${config.mcpPath}`,
        )
      : undefined;
    const apiProps = {
      handler: this.mcpFunction,
      path: config.mcpPath,
      metadataPaths: wellKnownPaths,
      stageName: props.stageName,
      throttleRateLimit: props.throttleRateLimit,
      throttleBurstLimit: props.throttleBurstLimit,
      allowedOrigins: props.allowedOrigins,
      accessLogRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
      disableExecuteApiEndpoint: props.domain?.disableExecuteApiEndpoint,
    };
    let stage: ApiStageMetrics;
    if (streaming) {
      this.restApi = new McpRestApi(this, 'RestApi', {
        ...apiProps,
        ...(firewall ? { firewall } : {}),
        ...(props.tracing ? { tracing: true } : {}),
        integrationTimeout: Duration.seconds(Platform.restStreamingMaxSeconds),
      });
      stage = this.restApi.stage;
    } else {
      this.httpApi = new McpHttpApi(this, 'HttpApi', apiProps);
      stage = this.httpApi.stage;
    }
    if (props.domain) {
      const { name, certificateArn, hostedZone } = props.domain;
      this.domain = new ApiDomain(this, 'Domain', {
        domainName: name,
        ...(certificateArn ? { certificateArn } : {}),
        ...(hostedZone ? { hostedZone } : {}),
      });
      if (this.restApi) this.domain.mapRestApi(this.restApi.api, this.restApi.stage);
      else this.domain.mapHttpApi(this.httpApi!.api, this.httpApi!.stage);
    }
    this.url = domainUrl ?? this.restApi?.url ?? this.httpApi!.url;
    if (oauth)
      this.auth = this.authorize(oauth, mcpEnvironment, wellKnownPaths![0]!, {
        removalPolicy: props.removalPolicy,
        serverName,
        throttleRateLimit: props.throttleRateLimit,
        throttleBurstLimit: props.throttleBurstLimit,
        logRetention: props.logRetention,
        tracing: props.tracing,
      });

    this.monitoring = new McpMonitoring(this, 'Monitoring', {
      functions: [
        { label: 'Mcp', function: this.mcpFunction, timeout: mcpTimeout },
        { label: 'Resources', function: this.resourcesFunction, timeout: resourcesTimeout },
        { label: 'Worker', function: this.tasks.workerFunction, timeout: this.tasks.timeout },
      ],
      stage,
      requestLogGroup: this.mcpFunction.logGroup,
      alarmActions: props.alarmActions,
      toolMetrics: config.toolMetrics
        ? { namespace: config.toolMetrics.namespace, service: serverName, tools: toolNamesOf(props, config) }
        : undefined,
    });
  }

  /**
   * Asking the person (docs/asking.md): a session key on either API, so the MCP function knows what each
   * handshake-era client declared and any instance opens the `requestState` of a 2026-07-28 retry; the rendezvous
   * table only with the streaming API, the one that can ask mid-call. Each is readable by the MCP function alone.
   */
  private wireAsking(
    props: McpEndpointProps,
    streaming: boolean,
    metricsNamespace: string,
  ): { sessions?: SessionSecret; rendezvous?: AskRendezvous } {
    const own = props.mcpEnvironment ?? {};
    this.warnPlaintextKeys(own);
    const added: Record<string, string> = {};
    const wired: { sessions?: SessionSecret; rendezvous?: AskRendezvous } = {};
    if (!own.MCP_SESSION_SECRET && !own.MCP_SESSION_SECRET_ARN) {
      const sessions = new SessionSecret(this, 'Sessions', { removalPolicy: props.removalPolicy });
      sessions.grantRead(this.mcpFunction);
      Object.assign(added, sessions.environment);
      wired.sessions = sessions;
    }
    if (streaming) {
      const asking = new AskRendezvous(this, 'Asking', {
        logGroup: this.mcpFunction.logGroup,
        metricsNamespace,
        removalPolicy: props.removalPolicy,
        alarmActions: props.alarmActions,
      });
      asking.grantQuestions(this.mcpFunction);
      Object.assign(added, asking.environment);
      wired.rendezvous = asking;
    }
    for (const [name, value] of Object.entries(added)) this.mcpFunction.addEnvironment(name, value);
    return wired;
  }

  /** A key given in `mcpEnvironment` is written into the template as it is: say so, and what to do instead. */
  private warnPlaintextKeys(own: Readonly<Record<string, string>>): void {
    for (const name of ['MCP_SESSION_SECRET', 'MCP_REQUEST_STATE_SECRET'])
      if (own[name])
        Annotations.of(this).addWarningV2(
          `mcp-lambda-template:plaintext-key-${name}`,
          `mcpEnvironment sets ${name} as plain text: the value is written into the CloudFormation template and ` +
            "shown in the functions' configuration. Leave it out: the stack then generates a Secrets Manager " +
            'secret (MCP_SESSION_SECRET_ARN) whose keys seal session ids and requestState alike, read by the MCP ' +
            'function alone.',
        );
  }

  /**
   * The web ACL when `waf` is on, after checking that it can protect everything the endpoint serves: AWS WAF
   * attaches to REST API stages, not to HTTP APIs.
   */
  private checkedFirewall(props: McpEndpointProps): ApiFirewall | undefined {
    if (!props.waf) {
      if (props.wafRateLimit !== undefined)
        throw new Error('McpEndpoint: wafRateLimit is used only with waf (the web application firewall)');
      if (props.wafCountOnlyRules !== undefined)
        throw new Error(
          'McpEndpoint: wafCountOnlyRules is used only with waf (the web application firewall)',
        );
      return undefined;
    }
    if (props.api !== 'rest-streaming')
      throw new Error(
        'McpEndpoint: waf needs api "rest-streaming": AWS WAF protects REST API stages, not HTTP APIs ' +
          '(choose the streaming REST API, or put CloudFront with a web ACL in front of the HTTP API yourself)',
      );
    if (props.auth?.mode === 'oauth' && props.auth.cognito && !props.domain)
      throw new Error(
        'McpEndpoint: waf with the Cognito authorization bridge needs a custom domain (domain, context domainName): ' +
          'without one the ' +
          'bridge runs on an HTTP API of its own, which AWS WAF cannot protect; on a domain the REST API carries it',
      );
    return new ApiFirewall(this, 'Firewall', {
      // The bridge's sign-in routes are on the protected REST API (checked above: it has a domain).
      authorizationBridge: props.auth?.mode === 'oauth' && Boolean(props.auth.cognito),
      ...(props.wafRateLimit !== undefined ? { rateLimit: props.wafRateLimit } : {}),
      ...(props.wafCountOnlyRules !== undefined ? { countOnlyRules: props.wafCountOnlyRules } : {}),
    });
  }

  /** The OAuth settings when `auth` is `oauth` (checked), undefined otherwise; warns when no choice was made. */
  private chosenOAuth(props: McpEndpointProps, domainUrl: string | undefined): McpOAuthProps | undefined {
    if (!props.auth) {
      Annotations.of(this).addWarningV2(
        'mcp-lambda-template:auth-not-chosen',
        'No authorization chosen: anyone who finds the URL can call every tool. Choose auth "oauth" (an issuer, ' +
          'or a Cognito user pool) or state auth "none" explicitly.',
      );
    }
    if (props.auth?.mode !== 'oauth') return undefined;
    const oauth = props.auth;
    if (!oauth.issuer === !oauth.cognito)
      throw new Error('McpEndpoint: auth "oauth" needs exactly one of issuer and cognito');
    // The endpoint on the custom domain is the resource: one URL for clients, tokens and metadata alike.
    if (domainUrl !== undefined && oauth.resource !== undefined && oauth.resource !== domainUrl)
      throw new Error(
        `McpEndpoint: auth resource ${JSON.stringify(oauth.resource)} differs from the endpoint on the custom ` +
          `domain (${domainUrl}); leave it out, the domain's endpoint URL is the resource`,
      );
    // RFC 9728 puts the metadata at the root of the host: a named HTTP API stage's URL cannot serve it. (A REST
    // API's always can't: there the challenges point at the metadata inside the stage, MCP_AUTH_METADATA_URL.)
    if (
      props.api !== 'rest-streaming' &&
      (props.stageName ?? Defaults.stageName) !== Defaults.stageName &&
      oauth.resource === undefined &&
      domainUrl === undefined
    )
      throw new Error(
        'McpEndpoint: auth "oauth" needs the $default stage, or a resource URL served by a custom domain',
      );
    return oauth;
  }

  /**
   * With `cognito`: the authorization bridge on this API as the issuer, and the Cognito user pool it signs people
   * in with (its app client's only callback is the bridge's). The bridge's issuer is the origin clients reach the
   * API at: the API endpoint, or the custom domain of a `resource` URL.
   */
  private bridged(
    oauth: McpOAuthProps,
    resource: string,
    options: AuthorizeOptions,
  ): { cognito: CognitoIssuer; bridge: AuthorizationBridge; requiredScopes: readonly string[] } {
    // On the HTTP API the bridge shares the endpoint's origin, and so on a custom domain, which serves a REST API
    // stage at the root too. A REST API stage's own URL cannot serve an issuer's root, so without a domain the
    // streaming endpoint gets an authorization API of its own (a second origin, listed in the metadata).
    const authorizationApi =
      this.httpApi || this.domain
        ? undefined
        : new AuthorizationApi(this, 'AuthorizationApi', {
            throttleRateLimit: options.throttleRateLimit,
            throttleBurstLimit: options.throttleBurstLimit,
            accessLogRetention: options.logRetention,
            removalPolicy: options.removalPolicy,
          });
    const api = authorizationApi?.api ?? this.httpApi?.api;
    const issuer =
      this.domain?.url ??
      (this.httpApi && oauth.resource !== undefined
        ? new URL(oauth.resource).origin
        : (authorizationApi?.url ?? this.httpApi!.api.apiEndpoint));
    const cognito = new CognitoIssuer(this, 'Issuer', {
      ...oauth.cognito,
      callbackUrl: `${issuer}${BRIDGE_PATHS.callback}`,
      removalPolicy: options.removalPolicy,
    });
    const requiredScopes = oauth.requiredScopes ?? [Defaults.bridgeScope];
    const bridge = new AuthorizationBridge(this, 'Bridge', {
      ...(api ? { httpApi: api } : { restApi: this.restApi!.api }),
      issuer,
      resource,
      scopes: requiredScopes,
      resourceName: options.serverName,
      upstream: {
        issuer: cognito.issuer,
        clientId: cognito.client.userPoolClientId,
        clientSecret: cognito.clientSecret,
      },
      removalPolicy: options.removalPolicy,
      tracing: options.tracing,
    });
    // On the traced REST API, API Gateway would record the sign-in queries (codes, state) in its traces. Any
    // prefix before /oauth/ too: the stage in a URL on the API's own endpoint.
    if (!api) this.restApi!.neverTrace('OAuthNeverTraced', '*/oauth/*');
    return { cognito, bridge, requiredScopes };
  }

  /**
   * Wires `auth: oauth`: creates the bridge and its Cognito pool if asked, and gives the MCP function its MCP_AUTH_*
   * settings, checked here as the function will check them (values CloudFormation fills in, such as the API URL,
   * are well-formed by construction and stand in as placeholders for the check).
   */
  private authorize(
    oauth: McpOAuthProps,
    mcpEnvironment: Record<string, string>,
    metadataPath: string,
    options: AuthorizeOptions,
  ): McpEndpointAuth {
    const resource = oauth.resource ?? this.url;
    // Where the API serves the metadata before deployment fills in its URL: at its RFC 9728 location on an HTTP
    // API's $default stage, inside the stage on a REST API (so the challenges must say where).
    const apiBase = this.restApi ? this.restApi.stageUrl : this.httpApi!.stage.url.replace(/\/$/, '');
    const deployTimeMetadataUrl = Token.isUnresolved(resource) ? `${apiBase}${metadataPath}` : undefined;
    const bridged = oauth.cognito ? this.bridged(oauth, resource, options) : undefined;
    const issuer = bridged?.bridge.issuer ?? oauth.issuer!;
    const requiredScopes = bridged?.requiredScopes ?? oauth.requiredScopes ?? [];
    const environment = environmentOf({
      MCP_AUTH_MODE: 'oauth',
      MCP_AUTH_ISSUER: issuer,
      MCP_AUTH_RESOURCE: resource,
      MCP_AUTH_AUDIENCE: oauth.audiences?.length ? oauth.audiences.join(',') : undefined,
      MCP_AUTH_REQUIRED_SCOPES: requiredScopes.length ? requiredScopes.join(',') : undefined,
      // With the bridge its key set URL is known: no discovery round trip on the first token.
      MCP_AUTH_JWKS_URL: bridged?.bridge.jwksUrl ?? (oauth.jwksUrl || undefined),
      MCP_AUTH_METADATA_URL: this.restApi ? deployTimeMetadataUrl : undefined,
    });
    const standIn = (name: string, value: string) =>
      !Token.isUnresolved(value)
        ? value
        : ['MCP_AUTH_ISSUER', 'MCP_AUTH_RESOURCE', 'MCP_AUTH_JWKS_URL', 'MCP_AUTH_METADATA_URL'].includes(
              name,
            )
          ? 'https://deploy-time.invalid/'
          : value
              .split(',')
              .filter((v) => !Token.isUnresolved(v))
              .join(',');
    configOf({
      ...mcpEnvironment,
      ...Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, standIn(k, v)])),
    });
    for (const [name, value] of Object.entries(environment)) this.mcpFunction.addEnvironment(name, value);
    return {
      issuer,
      resource,
      metadataUrl: deployTimeMetadataUrl ?? metadataUrl(resource),
      ...(bridged ? { cognito: bridged.cognito, bridge: bridged.bridge } : {}),
    };
  }
}
