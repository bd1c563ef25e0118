import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_MAX_AGE_SECONDS, MCP_CORS_HEADERS } from '@mcp-lambda/server/lambda';
import { Defaults, Platform } from '@mcp-lambda/server/limits';
import { checkedOrigins, checkedThrottle } from './api-checks.ts';
import type { McpApiProps } from './api-props.ts';
import { DEFAULT_LOG_RETENTION, DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Request headers an MCP client sends (Streamable HTTP, all revisions); browsers need them allowed by CORS. */
export { MCP_CORS_HEADERS };

/** Properties of an {@link McpHttpApi}. */
export interface McpHttpApiProps extends McpApiProps {
  /**
   * Stage name; `$default` serves the endpoint at the root of the API URL, any other name prefixes it.
   * @default '$default' (`Defaults.stageName`)
   */
  readonly stageName?: string;
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
}

/** One JSON line per request in the access log (HTTP API `$context` variables). */
const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  lambdaRequestId: '$context.integration.requestId',
};

/** CORS preflights for the allowed origins: the MCP headers, and the challenge and session headers readable. */
const corsPreflightOf = (origins: readonly string[], props: McpHttpApiProps): apigw.CorsPreflightOptions => ({
  allowOrigins: [...origins],
  // GET only for the public metadata documents, when the endpoint requires tokens.
  allowMethods: props.metadataPaths?.length
    ? [apigw.CorsHttpMethod.POST, apigw.CorsHttpMethod.GET]
    : [apigw.CorsHttpMethod.POST],
  allowHeaders: [...MCP_CORS_HEADERS, ...(props.extraCorsHeaders ?? [])],
  // A browser client must read the 401/403 challenge to find the authorization server, and its session.
  exposeHeaders: ['www-authenticate', 'mcp-session-id'],
  maxAge: Duration.seconds(CORS_MAX_AGE_SECONDS),
});

/**
 * The public HTTP side: an API Gateway HTTP API (payload format 2.0) whose MCP path routes POST, GET and DELETE to
 * the MCP function (the function answers GET and DELETE with 405, as the transport rules require), one stage with
 * throttling and JSON access logs, and CORS only for configured origins.
 */
export class McpHttpApi extends Construct {
  /** The HTTP API. */
  readonly api: apigw.HttpApi;
  /** The stage that serves the endpoint. */
  readonly stage: apigw.HttpStage;
  /** The access log group of the stage. */
  readonly accessLogs: logs.LogGroup;
  /** Path of the MCP endpoint. */
  readonly path: string;
  /** The MCP endpoint URL clients connect to. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: McpHttpApiProps) {
    super(scope, id);
    const path = props.path ?? Defaults.mcpPath;
    const stageName = props.stageName ?? Defaults.stageName;
    if (stageName !== '$default' && !/^[A-Za-z0-9_-]{1,128}$/.test(stageName)) {
      throw new Error(
        `McpHttpApi: stage name ${JSON.stringify(stageName)} must be "$default" or 1-128 of A-Z a-z 0-9 _ -`,
      );
    }
    const { rateLimit, burstLimit } = checkedThrottle('McpHttpApi', props);
    const origins = checkedOrigins('McpHttpApi', props.allowedOrigins);

    this.api = new apigw.HttpApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-mcp`,
      description: 'MCP Streamable HTTP endpoint (stateless, JSON responses)',
      createDefaultStage: false,
      ...(props.disableExecuteApiEndpoint ? { disableExecuteApiEndpoint: true } : {}),
      ...(origins.length ? { corsPreflight: corsPreflightOf(origins, props) } : {}),
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? DEFAULT_LOG_RETENTION,
      removalPolicy: props.removalPolicy ?? DEFAULT_REMOVAL_POLICY,
    });
    this.stage = this.api.addStage('Stage', {
      stageName,
      autoDeploy: true,
      throttle: { rateLimit, burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
    });

    this.route(path, props);
    this.path = path;
    this.url = `${this.stage.url.replace(/\/$/, '')}${path}`;
  }

  /** The MCP path (POST, GET, DELETE) and the metadata paths (GET), all to the MCP function. */
  private route(path: string, props: McpHttpApiProps): void {
    const integration = new HttpLambdaIntegration('McpIntegration', props.handler, {
      payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
    });
    const routes = this.api.addRoutes({
      path,
      methods: [apigw.HttpMethod.POST, apigw.HttpMethod.GET, apigw.HttpMethod.DELETE],
      integration,
    });
    for (const metadataPath of props.metadataPaths ?? []) {
      routes.push(
        ...this.api.addRoutes({ path: metadataPath, methods: [apigw.HttpMethod.GET], integration }),
      );
    }

    // An HTTP API waits up to 30 s for its integration (29 s is the REST and WebSocket limit); the CDK's
    // HttpIntegration refuses more than 29 s, so the limit is stated on the CloudFormation resource itself.
    for (const child of this.api.node.findAll()) {
      if (child instanceof apigw.CfnIntegration)
        child.timeoutInMillis = Platform.httpApiIntegrationTimeoutSeconds * 1000;
    }

    for (const route of routes) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization happens inside the MCP function, not in an API Gateway authorizer: with auth=oauth the ' +
          'function validates bearer tokens and answers 401/403 with the WWW-Authenticate challenge and ' +
          'resource_metadata that MCP clients need to find the authorization server, which an authorizer cannot ' +
          'shape; with auth=none the endpoint is deliberately open. Metadata routes are public by RFC 9728.',
      });
    }
  }
}
