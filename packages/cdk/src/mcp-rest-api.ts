import { Duration, Names, Stack, Token, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as xray from 'aws-cdk-lib/aws-xray';
import { Construct } from 'constructs';
import { CORS_MAX_AGE_SECONDS, MCP_CORS_HEADERS } from '@mcp-lambda/server/lambda';
import { Defaults, Platform } from '@mcp-lambda/server/limits';
import { checkedOrigins, checkedThrottle } from './api-checks.ts';
import type { McpApiProps } from './api-props.ts';
import { DEFAULT_LOG_RETENTION, DEFAULT_REMOVAL_POLICY } from './defaults.ts';
import type { ApiFirewall } from './api-firewall.ts';

/** Properties of an {@link McpRestApi}. */
export interface McpRestApiProps extends McpApiProps {
  /**
   * Stage name; a REST API serves every stage under its name, `https://…/prod/mcp`.
   * @default 'prod' (`Defaults.restStageName`)
   */
  readonly stageName?: string;
  /**
   * How long API Gateway keeps a streamed response open: at most 15 minutes, the REST API streaming limit.
   * @default Duration.minutes(15) (`Platform.restStreamingMaxSeconds`)
   */
  readonly integrationTimeout?: Duration;
  /**
   * Create the account-level role that lets API Gateway write logs in this region (REST API access logs need it).
   * It is one setting per account and region: turn this off when the account already has one.
   * @default true
   */
  readonly cloudWatchRole?: boolean;
  /**
   * Retention of the access log group.
   * @default logs.RetentionDays.ONE_MONTH (`Defaults.logRetentionDays`)
   */
  readonly accessLogRetention?: logs.RetentionDays;
  /**
   * What happens to the access log group when the stack is deleted.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Turn off the generated `execute-api` endpoint, so only a custom domain serves the API (requests to the
   * generated URL get 403).
   * @default false
   */
  readonly disableExecuteApiEndpoint?: boolean;
  /**
   * A web ACL to put the stage behind (AWS WAF protects REST API stages).
   * @default - none
   */
  readonly firewall?: ApiFirewall;
  /**
   * X-Ray tracing of the stage: API Gateway's segment starts the trace the MCP function's joins.
   * @default false
   */
  readonly tracing?: boolean;
}

/** One JSON line per request in the access log (REST API `$context` variables). */
const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  resourcePath: '$context.resourcePath',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integration.error',
  lambdaRequestId: '$context.integration.requestId',
  wafResponse: '$context.wafResponseCode',
};

/** Why the per-method cdk-nag rules do not apply here: authorization is the function's (docs/authorization.md). */
const AUTH_IN_FUNCTION =
  'Authorization happens inside the MCP function, not in an API Gateway authorizer: with auth=oauth the function ' +
  'validates bearer tokens and answers 401/403 with the WWW-Authenticate challenge and resource_metadata that MCP ' +
  'clients need to find the authorization server, which an authorizer cannot shape; with auth=none the endpoint ' +
  'is deliberately open. Metadata routes are public by RFC 9728; CORS preflights carry no credentials by design.';

/**
 * The public HTTP side with response streaming: an API Gateway REST API (Regional: edge-optimized endpoints close
 * idle streams after 30 s) whose MCP path sends POST, GET and DELETE to the MCP function through a Lambda proxy
 * integration in `STREAM` transfer mode (`InvokeWithResponseStream`), so an SSE answer reaches the client event by
 * event for up to 15 minutes. One stage with throttling, JSON access logs and error-level execution logs; CORS
 * preflights only for configured origins. Unlike an HTTP API it keeps the REST API features a public endpoint
 * grows into: WAF web ACLs, usage plans and API keys, custom domains.
 */
export class McpRestApi extends Construct {
  /** The REST API. */
  readonly api: apigw.RestApi;
  /** The stage that serves the endpoint. */
  readonly stage: apigw.Stage;
  /** The access log group of the stage. */
  readonly accessLogs: logs.LogGroup;
  /** Path of the MCP endpoint (without the stage). */
  readonly path: string;
  /**
   * The stage's base URL, `https://{api id}.execute-api.{region}.{suffix}/{stage}`. Built from the API id rather than
   * the stage resource, so the function may carry it in its environment without a dependency cycle (the stage's
   * deployment depends on the methods, which depend on the function).
   */
  readonly stageUrl: string;
  /** The MCP endpoint URL clients connect to (with the stage). */
  readonly url: string;
  /** Whether the stage records X-Ray traces (`tracing`). */
  readonly tracing: boolean;
  /** The stage's segment name in X-Ray, `{api name}/{stage}`. */
  private readonly segmentName: string;

  constructor(scope: Construct, id: string, props: McpRestApiProps) {
    super(scope, id);
    const path = props.path ?? Defaults.mcpPath;
    const stageName = props.stageName ?? Defaults.restStageName;
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(stageName))
      throw new Error(`McpRestApi: stage name ${JSON.stringify(stageName)} must be 1-128 of A-Z a-z 0-9 _ -`);
    const { rateLimit, burstLimit } = checkedThrottle('McpRestApi', props);
    const timeout = props.integrationTimeout ?? Duration.seconds(Platform.restStreamingMaxSeconds);
    if (timeout.toSeconds() > Platform.restStreamingMaxSeconds)
      throw new Error(
        `McpRestApi: integrationTimeout must be at most ${Platform.restStreamingMaxSeconds} seconds (streaming limit)`,
      );
    const origins = checkedOrigins('McpRestApi', props.allowedOrigins);

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? DEFAULT_LOG_RETENTION,
      removalPolicy: props.removalPolicy ?? DEFAULT_REMOVAL_POLICY,
    });
    this.api = new apigw.RestApi(this, 'Api', {
      restApiName: `${Stack.of(this).stackName}-mcp`,
      description: 'MCP Streamable HTTP endpoint (stateless, streamed SSE responses)',
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      ...(props.disableExecuteApiEndpoint ? { disableExecuteApiEndpoint: true } : {}),
      cloudWatchRole: props.cloudWatchRole ?? true,
      deployOptions: {
        stageName,
        throttlingRateLimit: rateLimit,
        throttlingBurstLimit: burstLimit,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        ...(props.tracing ? { tracingEnabled: true } : {}),
      },
    });
    this.stage = this.api.deploymentStage;

    this.route(path, origins, timeout, props);
    props.firewall?.protect('RestApiStage', this.stage);
    this.acknowledge(props);

    const { region, urlSuffix } = Stack.of(this);
    this.path = path;
    this.stageUrl = `https://${this.api.restApiId}.execute-api.${region}.${urlSuffix}/${stageName}`;
    this.url = `${this.stageUrl}${path}`;
    this.tracing = props.tracing ?? false;
    this.segmentName = `${this.api.restApiName}/${stageName}`;
  }

  /** The MCP path (POST, GET, DELETE) and the metadata paths (GET), streamed from the MCP function. */
  private route(path: string, origins: readonly string[], timeout: Duration, props: McpRestApiProps): void {
    const integration = new apigw.LambdaIntegration(props.handler, {
      proxy: true,
      responseTransferMode: apigw.ResponseTransferMode.STREAM,
      timeout,
      allowTestInvoke: false,
    });
    const cors = (methods: string[]): apigw.CorsOptions | undefined =>
      origins.length
        ? {
            allowOrigins: [...origins],
            allowMethods: methods,
            allowHeaders: [...MCP_CORS_HEADERS, ...(props.extraCorsHeaders ?? [])],
            maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
          }
        : undefined;
    const route = (routePath: string, methods: string[]) => {
      const resource = this.api.root.resourceForPath(routePath);
      const preflight = cors(methods);
      if (preflight) resource.addCorsPreflight(preflight);
      for (const method of methods) resource.addMethod(method, integration);
    };
    route(path, ['POST', 'GET', 'DELETE']);
    for (const metadataPath of props.metadataPaths ?? []) route(metadataPath, ['GET']);
  }

  /** The cdk-nag rules that do not apply here, each with the reason. */
  private acknowledge(props: McpRestApiProps): void {
    for (const method of this.api.methods) {
      Validations.of(method).acknowledge(
        { id: 'AwsSolutions-APIG4', reason: AUTH_IN_FUNCTION },
        { id: 'AwsSolutions-COG4', reason: AUTH_IN_FUNCTION },
      );
    }
    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'The MCP function validates every request itself (JSON-RPC shape, media types, sizes, protocol headers) ' +
        'and answers with the JSON-RPC errors and HTTP statuses the MCP transport rules require; an API Gateway ' +
        'request validator would answer in its own format instead.',
    });
    if (!props.firewall)
      Validations.of(this.api).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason:
          'The web application firewall is an option (waf=true, off by default: it has a monthly cost); a REST API ' +
          'stage can be put behind a web ACL, which is one reason this option uses a REST API, not a function URL.',
      });
    const cloudWatchRole = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole)
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'AmazonAPIGatewayPushToCloudWatchLogs is the service role policy AWS provides for the one account-level ' +
          'role API Gateway writes REST API logs with; it grants log writes only (set cloudWatchRole: false when ' +
          'the account already has such a role).',
      });
  }

  /**
   * With tracing on, an X-Ray sampling rule that never samples the stage's requests whose URL path matches `urlPath`
   * (X-Ray wildcards: `*` any characters): API Gateway records a traced request's URL with its query, and some
   * queries (OAuth codes and state) must not end up in traces. Matched by the stage's ARN, and by its segment name
   * when that fits X-Ray's 64 characters. Undefined when the stage is not traced.
   */
  neverTrace(id: string, urlPath: string): xray.CfnSamplingRule | undefined {
    if (!this.tracing) return undefined;
    const segmentName = this.segmentName;
    const scope = new Construct(this, id);
    return new xray.CfnSamplingRule(scope, 'Rule', {
      samplingRule: {
        // Unique in the account and region, at most 32 characters.
        ruleName: Names.uniqueResourceName(scope, { maxLength: 32 }),
        // Ahead of every rule of lower priority, the account's default rule (10000) among them.
        priority: 1,
        fixedRate: 0,
        reservoirSize: 0,
        serviceName: !Token.isUnresolved(segmentName) && segmentName.length <= 64 ? segmentName : '*',
        serviceType: 'AWS::ApiGateway::Stage',
        resourceArn: this.stage.stageArn,
        host: '*',
        httpMethod: '*',
        urlPath,
        version: 1,
      },
    });
  }
}
