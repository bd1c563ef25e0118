import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { BridgeLimits } from '@mcp-lambda/bridge';
import { DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Words AWS refuses in a Cognito domain prefix. */
const RESERVED_WORDS = /aws|amazon|cognito/g;

/**
 * A valid Cognito domain prefix from a stack name and an account: lower case, only a-z 0-9 and hyphens, without
 * the words Cognito refuses (aws, amazon, cognito). Pure, so a stack named e.g. `AwsMcpServer` synthesizes a
 * prefix AWS accepts instead of failing at deploy time.
 */
export function defaultDomainPrefix(stackName: string, account: string): string {
  const base =
    stackName
      .toLowerCase()
      .replace(RESERVED_WORDS, '')
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'mcp';
  return `${base.slice(0, 50)}-${account}`;
}

/** Why Cognito would refuse a domain prefix, or undefined (deploy-time values are not checked). */
export function domainPrefixProblem(prefix: string): string | undefined {
  if (Token.isUnresolved(prefix)) return undefined;
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(prefix))
    return 'must be 1-63 of a-z 0-9 and hyphens, starting and ending with a letter or digit';
  if (new RegExp(RESERVED_WORDS.source).test(prefix)) return 'must not contain "aws", "amazon" or "cognito"';
  return undefined;
}

/** Properties of a {@link CognitoIssuer}. */
export interface CognitoIssuerProps {
  /**
   * The authorization bridge's upstream callback: the one and only callback URL of the app client. MCP clients
   * never talk to Cognito; they register their own redirect URIs with the bridge. Required.
   */
  readonly callbackUrl: string;
  /**
   * Prefix of the managed sign-in domain, `https://<prefix>.auth.<region>.amazoncognito.com`; unique per region.
   * @default - the stack name in lower case without the words Cognito refuses, followed by the account id
   */
  readonly domainPrefix?: string;
  /**
   * Cognito feature plan: managed login (the sign-in pages the bridge sends people to) needs ESSENTIALS or PLUS;
   * PLUS adds threat protection at extra cost; LITE is refused.
   * @default cognito.FeaturePlan.ESSENTIALS
   */
  readonly featurePlan?: cognito.FeaturePlan;
  /**
   * What `cdk destroy` does with the user pool (and its users) and the client secret; RETAIN also turns on
   * deletion protection.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The sign-in provider for people who have none: a Cognito user pool (no self sign-up, strong passwords, TOTP MFA
 * required) with managed login, and one confidential app client for the authorization bridge (authorization code
 * with PKCE, openid and email, the bridge's callback only). The client secret is copied into Secrets Manager for
 * the bridge to read. Users are added by an administrator.
 */
export class CognitoIssuer extends Construct {
  /** The user pool: add users here (administrators only; no self sign-up). */
  readonly userPool: cognito.UserPool;
  /** The confidential app client the authorization bridge signs people in with. */
  readonly client: cognito.UserPoolClient;
  /** The managed sign-in domain. */
  readonly domain: cognito.UserPoolDomain;
  /** The app client's secret, in Secrets Manager. */
  readonly clientSecret: secretsmanager.Secret;
  /** The issuer identifier (`iss` of its ID tokens): `https://cognito-idp.<region>.amazonaws.com/<pool id>`. */
  readonly issuer: string;

  constructor(scope: Construct, id: string, props: CognitoIssuerProps) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? DEFAULT_REMOVAL_POLICY;
    const featurePlan = props.featurePlan ?? cognito.FeaturePlan.ESSENTIALS;
    if (featurePlan === cognito.FeaturePlan.LITE)
      throw new Error('CognitoIssuer: managed login needs the ESSENTIALS or PLUS plan, not LITE');
    const domainPrefix = this.domainPrefix(props.domainPrefix);

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
          'The ESSENTIALS plan already gives managed login, required TOTP MFA and strong passwords; the PLUS ' +
          'plan adds threat protection at a higher price per user. Set featurePlan to PLUS to turn it on.',
      });
    }

    // A confidential client: only the bridge (a server) uses it, with the authorization code flow and PKCE.
    this.client = this.userPool.addClient('BridgeClient', {
      generateSecret: true,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL],
        callbackUrls: [props.callbackUrl],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      accessTokenValidity: Duration.minutes(5),
      idTokenValidity: Duration.minutes(5),
      // The bridge keeps this token with each of its sessions and presents it on every refresh (so a user disabled,
      // deleted or signed out here cannot refresh there): it must last as long as a bridge session can.
      refreshTokenValidity: Duration.seconds(BridgeLimits.refreshTtlSeconds),
    });
    this.clientSecret = this.storeClientSecret(removalPolicy);

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

  /** The given prefix, checked, or the default derived from the stack name. */
  private domainPrefix(given: string | undefined): string {
    const stack = Stack.of(this);
    const prefix =
      given ??
      (Token.isUnresolved(stack.stackName) ? undefined : defaultDomainPrefix(stack.stackName, stack.account));
    if (prefix === undefined)
      throw new Error('CognitoIssuer: set domainPrefix when the stack name is not known at synth time');
    const problem = domainPrefixProblem(prefix);
    if (problem) throw new Error(`CognitoIssuer: domain prefix ${JSON.stringify(prefix)} ${problem}`);
    return prefix;
  }

  /** Copies the client secret into Secrets Manager (read at deploy time by CDK's AwsCustomResource). */
  private storeClientSecret(removalPolicy: RemovalPolicy): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, 'ClientSecret', {
      description: 'Client secret of the MCP authorization bridge at the Cognito user pool',
      secretStringValue: this.client.userPoolClientSecret,
      removalPolicy,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The value is the Cognito app client secret, which Cognito does not rotate on a schedule; a new client ' +
        'secret comes with a redeploy that replaces the app client, and this secret follows it.',
    });
    // The singleton function CDK adds per stack for AwsCustomResource.
    const reader = Stack.of(this).node.tryFindChild('AWS679f53fac002430cb0da5b7982bd2287');
    if (reader)
      Validations.of(reader).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "CDK's AwsCustomResource provider (it reads the app client secret once per deploy) runs with the AWS " +
          'managed basic execution role for its own logs; its only other permission is DescribeUserPoolClient ' +
          'on this user pool.',
      });
    return secret;
  }
}
