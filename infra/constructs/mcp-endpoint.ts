import { Annotations, Duration, RemovalPolicy, Token } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { metadataPaths, metadataUrl } from '../../src/auth/metadata.ts';
import { loadConfig } from '../../src/config.ts';
import { FUNCTION_ENTRIES, GENERATE_VALIDATORS_COMMAND } from '../bundling.ts';
import { BundledFunction, type FunctionLogLevel } from './bundled-function.ts';
import { CognitoIssuer, type CognitoIssuerProps } from './cognito-issuer.ts';
import { McpHttpApi } from './mcp-http-api.ts';
import { McpMonitoring } from './mcp-monitoring.ts';
import { OutputBucket } from './output-bucket.ts';

/**
 * Who may call the endpoint (README "Authorization"). `none`: anyone who has the URL. `oauth`: every request
 * needs an access token for this endpoint from one issuer, validated inside the MCP function (MCP_AUTH_*).
 */
export type McpAuthProps =
  | { readonly mode: 'none' }
  | {
      readonly mode: 'oauth';
      /** Issuer URL of an existing authorization server (`iss` of its tokens). Exactly one of `issuer` and `cognito`. */
      readonly issuer?: string;
      /** Create a Cognito user pool as the issuer (see {@link CognitoIssuer}). Exactly one of `issuer` and `cognito`. */
      readonly cognito?: Omit<CognitoIssuerProps, 'resource' | 'removalPolicy'>;
      /**
       * The endpoint's public URL: RFC 9728 `resource` and the token audience. Set it when a custom domain serves
       * the endpoint. Default: the API URL of the endpoint.
       */
      readonly resource?: string;
      /** Audiences accepted in tokens. Default: the resource URL only. */
      readonly audiences?: readonly string[];
      /** Scopes every request needs. Default: none, or the Cognito issuer's scope. */
      readonly requiredScopes?: readonly string[];
      /** Key set URL. Default: discovered from the issuer's metadata. */
      readonly jwksUrl?: string;
    };

/** What an endpoint with `auth: oauth` tells its users. */
export interface McpEndpointAuth {
  /** The issuer clients get tokens from. */
  readonly issuer: string;
  /** The resource URL tokens must be issued for. */
  readonly resource: string;
  /** Where the RFC 9728 metadata document is served. */
  readonly metadataUrl: string;
  /** The Cognito issuer, when the endpoint created one. */
  readonly cognito?: CognitoIssuer;
}

/** Properties of an {@link McpEndpoint}; every field is optional and documented with its default. */
export interface McpEndpointProps {
  /** Server name in `serverInfo` and on every log line (MCP_SERVER_NAME). Default `mcp-lambda-template`. */
  readonly serverName?: string;
  /** Path of the MCP endpoint (MCP_PATH). Default `/mcp`. */
  readonly path?: string;
  /** API stage; `$default` serves `https://…/mcp`, a name such as `prod` serves `https://…/prod/mcp`. Default `$default`. */
  readonly stageName?: string;
  /** Browser origins allowed to call (MCP_ALLOWED_ORIGINS and API Gateway CORS), exact or `*`. Default: none. */
  readonly allowedOrigins?: readonly string[];
  /** API stage steady-state rate limit, requests per second. Default 50. */
  readonly throttleRateLimit?: number;
  /** API stage burst limit, requests. Default 100. */
  readonly throttleBurstLimit?: number;
  /** A content block above this many bytes goes to S3 and comes back as a resource_link (OFFLOAD_THRESHOLD_BYTES). Default 32768. */
  readonly offloadThresholdBytes?: number;
  /** Days stored outputs live before the bucket's lifecycle rule deletes them (OFFLOAD_TTL_DAYS). Default 7. */
  readonly offloadTtlDays?: number;
  /** Key prefix of stored outputs (OFFLOAD_PREFIX). Default `outputs/`. */
  readonly offloadPrefix?: string;
  /** Memory of the MCP function in MB. Default 1024. */
  readonly mcpMemorySize?: number;
  /** Time limit of the MCP function; at most 29 s, API Gateway's integration limit. Default 28 seconds. */
  readonly mcpTimeout?: Duration;
  /** Memory of the companion resources function in MB. Default 512. */
  readonly resourcesMemorySize?: number;
  /** Time limit of the companion resources function; at most the MCP function's. Default 10 seconds. */
  readonly resourcesTimeout?: Duration;
  /** Extra environment of the MCP function, e.g. `{ MCP_PAGE_SIZE: '50' }` (see src/config.ts). Default: none. */
  readonly mcpEnvironment?: Readonly<Record<string, string>>;
  /** Lowest log level written by both functions. Default INFO. */
  readonly logLevel?: FunctionLogLevel;
  /** Retention of every log group (functions and API access logs). Default one month. */
  readonly logRetention?: logs.RetentionDays;
  /** What `cdk destroy` does with the output bucket and the log groups. Default DESTROY (see OutputBucket). */
  readonly removalPolicy?: RemovalPolicy;
  /** Entry file of the MCP function, relative to the project root. Default `functions/mcp/handler.ts`. */
  readonly mcpEntry?: string;
  /** Entry file of the companion resources function. Default `functions/resources/handler.ts`. */
  readonly resourcesEntry?: string;
  /**
   * Shell commands run in the project root before the MCP function is bundled. Default: with the default
   * `mcpEntry`, regenerate the precompiled tool validators so a bundle never carries stale ones; none otherwise.
   */
  readonly mcpBeforeBundling?: readonly string[];
  /** Actions run when an alarm changes state (e.g. an SNS topic). Default: none. */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
  /**
   * Who may call. Default: nobody is asked for anything (as `{ mode: 'none' }`), and synth warns that no choice
   * was made; `infra/app.ts` refuses to synthesize without an explicit choice.
   */
  readonly auth?: McpAuthProps;
}

const API_GATEWAY_LIMIT = Duration.seconds(29);

function checkMemory(name: string, mb: number): number {
  if (!Number.isInteger(mb) || mb < 128 || mb > 10240)
    throw new Error(`McpEndpoint: ${name} must be an integer from 128 to 10240 MB (got ${mb})`);
  return mb;
}

/**
 * A hosted, stateless MCP server: the output bucket, the companion resources function, the MCP function, the HTTP
 * API in front of it and the monitoring around them. Embed it in any CDK app; `McpStack` is one such app.
 */
export class McpEndpoint extends Construct {
  /** The MCP endpoint URL clients connect to. */
  readonly url: string;
  readonly outputs: OutputBucket;
  readonly mcpFunction: BundledFunction;
  readonly resourcesFunction: BundledFunction;
  readonly httpApi: McpHttpApi;
  readonly monitoring: McpMonitoring;
  /** Issuer, resource and metadata URL when `auth` is `oauth`; undefined when the endpoint is open. */
  readonly auth?: McpEndpointAuth;

  constructor(scope: Construct, id: string, props: McpEndpointProps = {}) {
    super(scope, id);
    const serverName = props.serverName ?? 'mcp-lambda-template';
    const path = props.path ?? '/mcp';
    const mcpTimeout = props.mcpTimeout ?? Duration.seconds(28);
    const resourcesTimeout = props.resourcesTimeout ?? Duration.seconds(10);
    if (mcpTimeout.toMilliseconds() > API_GATEWAY_LIMIT.toMilliseconds())
      throw new Error('McpEndpoint: mcpTimeout must be at most 29 seconds (API Gateway integration limit)');
    if (resourcesTimeout.toMilliseconds() > mcpTimeout.toMilliseconds())
      throw new Error(
        'McpEndpoint: resourcesTimeout must be at most mcpTimeout (the MCP function waits for it)',
      );
    const shared = {
      logLevel: props.logLevel ?? 'INFO',
      logRetention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.DESTROY,
    } as const;

    this.outputs = new OutputBucket(this, 'Outputs', {
      prefix: props.offloadPrefix ?? 'outputs/',
      ttlDays: props.offloadTtlDays ?? 7,
      removalPolicy: shared.removalPolicy,
    });
    const offloadEnvironment = {
      OFFLOAD_BUCKET: this.outputs.bucket.bucketName,
      OFFLOAD_PREFIX: this.outputs.prefix,
      OFFLOAD_TTL_DAYS: String(this.outputs.ttlDays),
    };

    this.resourcesFunction = new BundledFunction(this, 'ResourcesFunction', {
      ...shared,
      entry: props.resourcesEntry ?? FUNCTION_ENTRIES.resources,
      description: 'Companion of the MCP function: reads stored tool outputs for resources/read',
      memorySize: checkMemory('resourcesMemorySize', props.resourcesMemorySize ?? 512),
      timeout: resourcesTimeout,
      serviceName: `${serverName}-resources`,
      environment: { MCP_SERVER_NAME: serverName, ...offloadEnvironment },
    });
    this.outputs.grantReadOutputs(this.resourcesFunction.role);

    const mcpEnvironment: Record<string, string> = {
      ...props.mcpEnvironment,
      MCP_SERVER_NAME: serverName,
      MCP_PATH: path,
      ...(props.allowedOrigins?.length ? { MCP_ALLOWED_ORIGINS: props.allowedOrigins.join(',') } : {}),
      ...offloadEnvironment,
      OFFLOAD_THRESHOLD_BYTES: String(props.offloadThresholdBytes ?? 32 * 1024),
      RESOURCES_FUNCTION_NAME: this.resourcesFunction.function.functionName,
    };
    // The function validates its configuration at cold start; validating the same values here fails the synth
    // instead of the first request.
    try {
      loadConfig(mcpEnvironment);
    } catch (error) {
      throw new Error(`McpEndpoint: ${(error as Error).message}`);
    }
    this.mcpFunction = new BundledFunction(this, 'McpFunction', {
      ...shared,
      entry: props.mcpEntry ?? FUNCTION_ENTRIES.mcp,
      beforeBundling:
        props.mcpBeforeBundling ?? (props.mcpEntry === undefined ? [GENERATE_VALIDATORS_COMMAND] : []),
      description: 'Stateless MCP server (Streamable HTTP, JSON responses)',
      memorySize: checkMemory('mcpMemorySize', props.mcpMemorySize ?? 1024),
      timeout: mcpTimeout,
      serviceName: serverName,
      environment: mcpEnvironment,
    });
    this.outputs.grantStoreOutputs(this.mcpFunction.role);
    iam.Grant.addToPrincipal({
      grantee: this.mcpFunction.role,
      actions: ['lambda:InvokeFunction'],
      resourceArns: [this.resourcesFunction.function.functionArn],
    });

    const oauth = props.auth?.mode === 'oauth' ? props.auth : undefined;
    if (!props.auth) {
      Annotations.of(this).addWarningV2(
        'mcp-lambda-template:auth-not-chosen',
        'No authorization chosen: anyone who finds the URL can call every tool. Choose auth "oauth" (an issuer, ' +
          'or a Cognito user pool) or state auth "none" explicitly.',
      );
    }
    if (oauth) {
      if (!oauth.issuer === !oauth.cognito)
        throw new Error('McpEndpoint: auth "oauth" needs exactly one of issuer and cognito');
      // RFC 9728 puts the metadata at the root of the host: a named stage's URL cannot serve it.
      if ((props.stageName ?? '$default') !== '$default' && oauth.resource === undefined)
        throw new Error(
          'McpEndpoint: auth "oauth" needs the $default stage, or a resource URL served by a custom domain',
        );
    }
    const wellKnownPaths = oauth
      ? metadataPaths(
          oauth.resource !== undefined && !Token.isUnresolved(oauth.resource)
            ? oauth.resource
            : `https://endpoint.invalid${path}`,
        )
      : [];

    this.httpApi = new McpHttpApi(this, 'HttpApi', {
      handler: this.mcpFunction.function,
      path,
      ...(wellKnownPaths.length ? { metadataPaths: wellKnownPaths } : {}),
      ...(props.stageName !== undefined ? { stageName: props.stageName } : {}),
      ...(props.throttleRateLimit !== undefined ? { throttleRateLimit: props.throttleRateLimit } : {}),
      ...(props.throttleBurstLimit !== undefined ? { throttleBurstLimit: props.throttleBurstLimit } : {}),
      ...(props.allowedOrigins ? { allowedOrigins: props.allowedOrigins } : {}),
      accessLogRetention: shared.logRetention,
      removalPolicy: shared.removalPolicy,
    });
    this.url = this.httpApi.url;
    if (oauth) this.auth = this.authorize(oauth, path, mcpEnvironment, shared.removalPolicy);

    this.monitoring = new McpMonitoring(this, 'Monitoring', {
      functions: [
        { label: 'Mcp', function: this.mcpFunction.function, timeout: mcpTimeout },
        { label: 'Resources', function: this.resourcesFunction.function, timeout: resourcesTimeout },
      ],
      stage: this.httpApi.stage,
      requestLogGroup: this.mcpFunction.logGroup,
      ...(props.alarmActions ? { alarmActions: props.alarmActions } : {}),
    });
  }

  /**
   * Wires `auth: oauth`: creates the Cognito issuer if asked, and gives the MCP function its MCP_AUTH_* settings,
   * checked here as the function will check them (values CloudFormation fills in, such as the API URL and the
   * user pool's issuer URL, are well-formed by construction and stand in as placeholders for the check).
   */
  private authorize(
    oauth: Extract<McpAuthProps, { mode: 'oauth' }>,
    path: string,
    mcpEnvironment: Record<string, string>,
    removalPolicy: RemovalPolicy,
  ): McpEndpointAuth {
    const resource = oauth.resource ?? this.url;
    const cognito = oauth.cognito
      ? new CognitoIssuer(this, 'Issuer', { ...oauth.cognito, resource, removalPolicy })
      : undefined;
    const issuer = cognito?.issuer ?? oauth.issuer!;
    const requiredScopes = oauth.requiredScopes ?? (cognito ? [cognito.scope] : []);
    const environment: Record<string, string> = {
      MCP_AUTH_MODE: 'oauth',
      MCP_AUTH_ISSUER: issuer,
      MCP_AUTH_RESOURCE: resource,
      ...(oauth.audiences?.length ? { MCP_AUTH_AUDIENCE: oauth.audiences.join(',') } : {}),
      ...(requiredScopes.length ? { MCP_AUTH_REQUIRED_SCOPES: requiredScopes.join(',') } : {}),
      ...(oauth.jwksUrl ? { MCP_AUTH_JWKS_URL: oauth.jwksUrl } : {}),
    };
    const standIn = (name: string, value: string) =>
      !Token.isUnresolved(value)
        ? value
        : name === 'MCP_AUTH_ISSUER' || name === 'MCP_AUTH_RESOURCE'
          ? 'https://deploy-time.invalid/'
          : value
              .split(',')
              .filter((v) => !Token.isUnresolved(v))
              .join(',');
    try {
      loadConfig({
        ...mcpEnvironment,
        ...Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, standIn(k, v)])),
      });
    } catch (error) {
      throw new Error(`McpEndpoint: ${(error as Error).message}`);
    }
    for (const [name, value] of Object.entries(environment))
      this.mcpFunction.function.addEnvironment(name, value);
    return {
      issuer,
      resource,
      metadataUrl: Token.isUnresolved(resource)
        ? `${this.httpApi.stage.url.replace(/\/$/, '')}/.well-known/oauth-protected-resource${path}`
        : metadataUrl(resource),
      ...(cognito ? { cognito } : {}),
    };
  }
}
