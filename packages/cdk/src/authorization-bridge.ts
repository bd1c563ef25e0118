import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as rest from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { BRIDGE_PATHS } from '@mcp-lambda/bridge';
import { BridgeLimits } from '@mcp-lambda/bridge';
import { Defaults, Platform } from '@mcp-lambda/server/limits';
import { FUNCTION_ENTRIES } from './bundling.ts';
import { DEFAULT_REMOVAL_POLICY } from './defaults.ts';
import { BundledFunction, type FunctionLogLevel } from './bundled-function.ts';
import { grantSpanExport, spanExportEnvironment } from './span-export.ts';

/** The OpenID provider users sign in with, and the bridge's confidential client there. */
export interface BridgeUpstream {
  /** Issuer identifier of the provider (its discovery document is read from it). Required. */
  readonly issuer: string;
  /** The bridge's client id at the provider. Required. */
  readonly clientId: string;
  /** Secrets Manager secret holding that client's secret (the whole secret string). Required. */
  readonly clientSecret: secretsmanager.ISecret;
  /** Scopes asked of the provider. @default ['openid', 'email'] */
  readonly scopes?: readonly string[];
}

/** Properties of an {@link AuthorizationBridge}. */
export interface AuthorizationBridgeProps {
  /**
   * The HTTP API the bridge's routes are added to (the MCP endpoint's, or an API of its own); exactly one of
   * `httpApi` and `restApi`.
   * @default - none: `restApi` must be given
   */
  readonly httpApi?: apigw.HttpApi;
  /**
   * The REST API the bridge's routes are added to: the streaming endpoint's, when a custom domain serves its
   * stage at the root of an origin (an issuer needs the root); exactly one of `httpApi` and `restApi`.
   * @default - none: `httpApi` must be given
   */
  readonly restApi?: rest.RestApi;
  /** The bridge's issuer: the origin the API is reached at, e.g. the API endpoint URL. Required. */
  readonly issuer: string;
  /** The MCP endpoint URL: the audience of every token the bridge issues. Required. */
  readonly resource: string;
  /** The sign-in provider. Required. */
  readonly upstream: BridgeUpstream;
  /**
   * Resource scopes the bridge grants (`offline_access` is always offered for refresh tokens).
   * @default ['mcp'] (`Defaults.bridgeScope`)
   */
  readonly scopes?: readonly string[];
  /**
   * Name of the MCP server shown on the consent page.
   * @default 'this MCP server'
   */
  readonly resourceName?: string;
  /**
   * Memory of the bridge function in MB.
   * @default 512 (`BridgeLimits.functionMemoryMb`)
   */
  readonly memorySize?: number;
  /**
   * Time limit of one bridge invocation (a sign-in is a few outbound calls).
   * @default Duration.seconds(15) (`BridgeLimits.functionTimeoutSeconds`)
   */
  readonly timeout?: Duration;
  /**
   * Lowest log level written.
   * @default 'INFO' (see BundledFunction)
   */
  readonly logLevel?: FunctionLogLevel;
  /**
   * Retention of the function's logs.
   * @default logs.RetentionDays.ONE_MONTH (see BundledFunction)
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * Tracing of the bridge function: OpenTelemetry spans of each request and its KMS, DynamoDB and Secrets Manager
   * calls (BRIDGE_TRACING), sent to X-Ray's OTLP endpoint, and Lambda active tracing (docs/operations.md, "Tracing").
   * @default false
   */
  readonly tracing?: boolean;
  /**
   * What `cdk destroy` does with the table, the signing key, the sealing secret and the logs.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** Why the bridge's routes have no API Gateway authorizer (cdk-nag APIG4, COG4). */
const PUBLIC_OAUTH_ENDPOINTS =
  'OAuth authorization server endpoints are public by definition (RFC 8414, RFC 7591, OAuth 2.1): clients ' +
  'call them before they hold any token; each endpoint authenticates what it must (PKCE, client secrets, ' +
  'sealed state bound to the browser) and the stage throttle bounds floods.';

/** Every route of the bridge: the OAuth endpoints, and the metadata at the paths clients try. */
export const BRIDGE_ROUTES: readonly { path: string; methods: apigw.HttpMethod[] }[] = [
  { path: '/.well-known/oauth-authorization-server', methods: [apigw.HttpMethod.GET] },
  { path: '/.well-known/openid-configuration', methods: [apigw.HttpMethod.GET] },
  { path: BRIDGE_PATHS.authorize, methods: [apigw.HttpMethod.GET] },
  { path: BRIDGE_PATHS.consent, methods: [apigw.HttpMethod.POST] },
  { path: BRIDGE_PATHS.callback, methods: [apigw.HttpMethod.GET] },
  { path: BRIDGE_PATHS.token, methods: [apigw.HttpMethod.POST, apigw.HttpMethod.OPTIONS] },
  { path: BRIDGE_PATHS.revoke, methods: [apigw.HttpMethod.POST, apigw.HttpMethod.OPTIONS] },
  { path: BRIDGE_PATHS.register, methods: [apigw.HttpMethod.POST, apigw.HttpMethod.OPTIONS] },
  { path: BRIDGE_PATHS.jwks, methods: [apigw.HttpMethod.GET] },
];

/**
 * The authorization bridge (docs/authorization.md): an OAuth 2.1 authorization server for MCP clients in its own
 * function on the endpoint's HTTP API. It keeps single-use codes and refresh-token families in a DynamoDB table
 * (on demand, TTL), signs access tokens with an asymmetric KMS key whose private half never leaves KMS, and keys
 * its sealed values with a generated Secrets Manager secret. Its role may do exactly that and nothing more.
 */
export class AuthorizationBridge extends Construct {
  readonly function: BundledFunction;
  readonly table: dynamodb.Table;
  readonly signingKey: kms.Key;
  readonly sealingSecret: secretsmanager.Secret;
  /** The issuer identifier (`authorization_servers` in the protected resource metadata). */
  readonly issuer: string;
  /** The bridge's upstream callback: the only callback URL of its client at the provider. */
  readonly callbackUrl: string;
  /** Where the bridge publishes its signing key. */
  readonly jwksUrl: string;

  constructor(scope: Construct, id: string, props: AuthorizationBridgeProps) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? DEFAULT_REMOVAL_POLICY;
    this.issuer = props.issuer;
    this.callbackUrl = `${props.issuer}${BRIDGE_PATHS.callback}`;
    this.jwksUrl = `${props.issuer}${BRIDGE_PATHS.jwks}`;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'expiresAt',
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy,
    });
    Validations.of(this.table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'The table holds only hashes of one-minute authorization codes and refresh-token families that expire; ' +
        'restoring an old copy would revive revoked families, and losing it only asks users to sign in again.',
    });

    this.signingKey = new kms.Key(this, 'SigningKey', {
      description: 'Signs the access tokens of the MCP authorization bridge (ES256)',
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      removalPolicy,
      pendingWindow: Duration.days(7),
    });
    Validations.of(this.signingKey).acknowledge({
      id: 'AwsSolutions-KMS5',
      reason:
        'KMS cannot rotate asymmetric keys automatically; rotating this signing key means a new key and a ' +
        'redeploy (docs/sign-in-sessions.md), and access tokens live one hour.',
    });

    this.sealingSecret = new secretsmanager.Secret(this, 'SealingSecret', {
      description: 'Keys the sealed client ids, transactions and cookies of the MCP authorization bridge',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(this.sealingSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Rotating the sealing secret invalidates every dynamically registered client id and pending sign-in at ' +
        'once, so it is rotated by hand when needed (docs/authorization.md, "Threat model"), not on a schedule.',
    });

    this.function = this.bridgeFunction(props, removalPolicy);
    this.grant(props.upstream.clientSecret);
    if (props.tracing) grantSpanExport(this.function);
    if (!props.httpApi === !props.restApi)
      throw new Error('AuthorizationBridge: give exactly one of httpApi and restApi');
    if (props.httpApi) this.route(props.httpApi);
    else this.routeRest(props.restApi!);
  }

  /** The bridge's function, given its issuer, its upstream and where its table, key and secret are. */
  private bridgeFunction(props: AuthorizationBridgeProps, removalPolicy: RemovalPolicy): BundledFunction {
    const scopes = props.scopes ?? [Defaults.bridgeScope];
    const timeout = props.timeout ?? Duration.seconds(BridgeLimits.functionTimeoutSeconds);
    if (timeout.toSeconds() > Platform.httpApiIntegrationTimeoutSeconds)
      throw new Error(
        `AuthorizationBridge: timeout must be at most ${Platform.httpApiIntegrationTimeoutSeconds} seconds (the HTTP API limit)`,
      );
    return new BundledFunction(this, 'Function', {
      entry: FUNCTION_ENTRIES.authorization,
      description:
        'MCP authorization bridge (OAuth 2.1 authorization server in front of the sign-in provider)',
      memorySize: props.memorySize ?? BridgeLimits.functionMemoryMb,
      timeout,
      serviceName: 'mcp-authorization-bridge',
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      logRemovalPolicy: removalPolicy,
      ...(props.tracing ? { tracing: lambda.Tracing.ACTIVE } : {}),
      environment: {
        ...(props.tracing ? spanExportEnvironment('BRIDGE_TRACING') : {}),
        BRIDGE_ISSUER: props.issuer,
        BRIDGE_RESOURCE: props.resource,
        BRIDGE_RESOURCE_NAME: props.resourceName ?? 'this MCP server',
        BRIDGE_SCOPES: scopes.join(','),
        BRIDGE_UPSTREAM_ISSUER: props.upstream.issuer,
        BRIDGE_UPSTREAM_CLIENT_ID: props.upstream.clientId,
        BRIDGE_UPSTREAM_SCOPES: (props.upstream.scopes ?? ['openid', 'email']).join(','),
        BRIDGE_UPSTREAM_CLIENT_SECRET_ARN: props.upstream.clientSecret.secretArn,
        BRIDGE_SEALING_SECRET_ARN: this.sealingSecret.secretArn,
        BRIDGE_SIGNING_KEY_ID: this.signingKey.keyArn,
        BRIDGE_TABLE: this.table.tableName,
      },
    });
  }

  /** Least privilege: three item operations on the table, sign and read the public key, read two secrets. */
  private grant(upstreamSecret: secretsmanager.ISecret): void {
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        resources: [this.table.tableArn],
      }),
    );
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['kms:Sign', 'kms:GetPublicKey'],
        resources: [this.signingKey.keyArn],
      }),
    );
    this.function.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.sealingSecret.secretArn, upstreamSecret.secretArn],
      }),
    );
  }

  /** The same routes as REST API methods (Lambda proxy integrations, buffered: the bridge never streams). */
  private routeRest(api: rest.RestApi): void {
    const integration = new rest.LambdaIntegration(this.function, { proxy: true, allowTestInvoke: false });
    for (const { path, methods } of BRIDGE_ROUTES) {
      const resource = api.root.resourceForPath(path);
      for (const method of methods) {
        Validations.of(resource.addMethod(method, integration)).acknowledge(
          { id: 'AwsSolutions-APIG4', reason: PUBLIC_OAUTH_ENDPOINTS },
          { id: 'AwsSolutions-COG4', reason: PUBLIC_OAUTH_ENDPOINTS },
        );
      }
    }
  }

  private route(api: apigw.HttpApi): void {
    const integration = new HttpLambdaIntegration('BridgeIntegration', this.function, {
      payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
      // Longer than the function's own limit, so the function's timeout decides (the CDK allows at most 29 s).
      timeout: Duration.seconds(29),
    });
    for (const { path, methods } of BRIDGE_ROUTES) {
      for (const route of api.addRoutes({ path, methods, integration })) {
        Validations.of(route).acknowledge({ id: 'AwsSolutions-APIG4', reason: PUBLIC_OAUTH_ENDPOINTS });
      }
    }
  }
}
