import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { Defaults } from '../../src/limits.ts';
import { DEFAULT_REMOVAL_POLICY } from '../defaults.ts';

/** Properties of a {@link CognitoIssuer}. */
export interface CognitoIssuerProps {
  /**
   * The MCP endpoint's public URL. It becomes the resource server identifier, so a client that asks for this
   * resource (RFC 8707 `resource`, which MCP clients must send) gets a token whose `aud` is this URL. Required.
   */
  readonly resource: string;
  /**
   * Prefix of the hosted sign-in domain, `https://<prefix>.auth.<region>.amazoncognito.com`; unique per region.
   * @default - the stack name in lower case followed by the account id
   */
  readonly domainPrefix?: string;
  /**
   * Where the sign-in may send users back with an authorization code: the redirect URIs of the MCP clients that
   * will use the app client.
   * @default ['http://localhost:6274/oauth/callback'], the MCP Inspector's local callback (`Defaults.cognitoCallbackUrl`)
   */
  readonly callbackUrls?: readonly string[];
  /**
   * Name of the one scope this issuer grants for the MCP server.
   * @default 'tools' (`Defaults.cognitoScopeName` in src/limits.ts)
   */
  readonly scopeName?: string;
  /**
   * Cognito feature plan. ESSENTIALS is the lowest plan with resource indicators (the `aud` claim); PLUS adds
   * threat protection at extra cost; LITE is refused.
   * @default cognito.FeaturePlan.ESSENTIALS
   */
  readonly featurePlan?: cognito.FeaturePlan;
  /**
   * What `cdk destroy` does with the user pool (and its users); RETAIN also turns on deletion protection.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * A ready OAuth issuer for people who have none: a Cognito user pool (no self sign-up, strong passwords, TOTP MFA
 * required), a resource server for the MCP endpoint with one scope, a public app client for the authorization-code
 * flow with PKCE, and the managed sign-in pages. Users are added by an administrator.
 */
export class CognitoIssuer extends Construct {
  /** The user pool: add users here (administrators only; no self sign-up). */
  readonly userPool: cognito.UserPool;
  /** The public app client MCP clients use (authorization code with PKCE). */
  readonly client: cognito.UserPoolClient;
  /** The managed sign-in domain. */
  readonly domain: cognito.UserPoolDomain;
  /** The issuer identifier (`iss` of its tokens): `https://cognito-idp.<region>.amazonaws.com/<pool id>`. */
  readonly issuer: string;
  /** The scope the MCP server requires, as it appears in tokens: `<resource>/<scope name>`. */
  readonly scope: string;

  constructor(scope: Construct, id: string, props: CognitoIssuerProps) {
    super(scope, id);
    const scopeName = props.scopeName ?? Defaults.cognitoScopeName;
    if (!/^[A-Za-z0-9_.:-]{1,256}$/.test(scopeName))
      throw new Error(
        `CognitoIssuer: scope name ${JSON.stringify(scopeName)} must be 1-256 of A-Z a-z 0-9 _ . : -`,
      );
    const callbackUrls = [...(props.callbackUrls ?? [Defaults.cognitoCallbackUrl])];
    const removalPolicy = props.removalPolicy ?? DEFAULT_REMOVAL_POLICY;
    const featurePlan = props.featurePlan ?? cognito.FeaturePlan.ESSENTIALS;
    if (featurePlan === cognito.FeaturePlan.LITE)
      throw new Error(
        'CognitoIssuer: the LITE plan has no resource indicators, so tokens would carry no audience',
      );
    const stack = Stack.of(this);
    const domainPrefix =
      props.domainPrefix ??
      (Token.isUnresolved(stack.stackName) ? undefined : `${stack.stackName.toLowerCase()}-${stack.account}`);
    if (domainPrefix === undefined)
      throw new Error('CognitoIssuer: set domainPrefix when the stack name is not known at synth time');

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      featurePlan,
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: cognito.Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      deletionProtection: removalPolicy === RemovalPolicy.RETAIN,
      removalPolicy,
    });
    if (featurePlan !== cognito.FeaturePlan.PLUS) {
      Validations.of(this.userPool).acknowledge({
        id: 'AwsSolutions-COG8',
        reason:
          'The ESSENTIALS plan already gives resource indicators, required TOTP MFA and strong passwords; the PLUS ' +
          'plan adds threat protection at a higher price per user. Set featurePlan to PLUS to turn it on.',
      });
    }

    const mcpScope = new cognito.ResourceServerScope({
      scopeName,
      scopeDescription: 'Call the tools and read the resources of the MCP server',
    });
    const resourceServer = this.userPool.addResourceServer('McpResourceServer', {
      identifier: props.resource,
      userPoolResourceServerName: 'MCP server',
      scopes: [mcpScope],
    });
    this.scope = `${props.resource}/${scopeName}`;

    // A public client (no secret: MCP clients run on users' machines) using the authorization code grant with PKCE.
    this.client = this.userPool.addClient('McpClient', {
      generateSecret: false,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.resourceServer(resourceServer, mcpScope), cognito.OAuthScope.OPENID],
        callbackUrls,
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
    });

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });
    // The managed sign-in pages need a style for the client; Cognito's own defaults are enough.
    new cognito.CfnManagedLoginBranding(this, 'Branding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    }).node.addDependency(this.domain);

    this.issuer = this.userPool.userPoolProviderUrl;
  }
}
