import { Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { Defaults } from '@mcp-lambda/server/limits';
import { DEFAULT_LOG_RETENTION, DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Properties of an {@link AuthorizationApi}. */
export interface AuthorizationApiProps {
  /**
   * Steady-state request rate limit of the stage, requests per second.
   * @default 50 (`Defaults.throttleRateLimit` in packages/server/src/limits.ts)
   */
  readonly throttleRateLimit?: number;
  /**
   * Burst limit of the stage, requests.
   * @default 100 (`Defaults.throttleBurstLimit`)
   */
  readonly throttleBurstLimit?: number;
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
}

/** One JSON line per request in the access log (HTTP API `$context` variables). */
const ACCESS_LOG_FORMAT = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLatencyMs: '$context.responseLatency',
  integrationError: '$context.integrationErrorMessage',
  lambdaRequestId: '$context.integration.requestId',
};

/**
 * The HTTP API that carries the authorization bridge when the MCP endpoint itself is the streaming REST API: an
 * issuer must serve its metadata at the root of its origin (RFC 8414, `/.well-known/oauth-authorization-server`),
 * which a REST API stage URL (`https://…/prod/…`) cannot. Its `$default` stage serves the root, throttled and with
 * JSON access logs; the bridge adds its own routes. The MCP endpoint lists this origin as its authorization server.
 */
export class AuthorizationApi extends Construct {
  /** The HTTP API the bridge's routes are added to. */
  readonly api: apigw.HttpApi;
  /** Its `$default` stage. */
  readonly stage: apigw.HttpStage;
  /** The access log group of the stage. */
  readonly accessLogs: logs.LogGroup;
  /** The origin it answers at: the bridge's issuer. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: AuthorizationApiProps = {}) {
    super(scope, id);
    const rateLimit = props.throttleRateLimit ?? Defaults.throttleRateLimit;
    const burstLimit = props.throttleBurstLimit ?? Defaults.throttleBurstLimit;
    if (!(Number.isFinite(rateLimit) && rateLimit > 0))
      throw new Error('AuthorizationApi: throttleRateLimit must be a positive number of requests per second');
    if (!(Number.isInteger(burstLimit) && burstLimit > 0))
      throw new Error('AuthorizationApi: throttleBurstLimit must be a positive integer');
    this.api = new apigw.HttpApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-authorization`,
      description: 'OAuth 2.1 authorization server of the MCP endpoint (the authorization bridge)',
      createDefaultStage: false,
    });
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? DEFAULT_LOG_RETENTION,
      removalPolicy: props.removalPolicy ?? DEFAULT_REMOVAL_POLICY,
    });
    this.stage = this.api.addStage('Stage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit, burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FORMAT)),
      },
    });
    this.url = this.api.apiEndpoint;
  }
}
