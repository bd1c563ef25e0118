import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { describe, expect, it } from 'vitest';
import {
  CognitoIssuer,
  defaultDomainPrefix,
  domainPrefixProblem,
  type CognitoIssuerProps,
} from '../../../src/cognito-issuer.ts';
import { BridgeLimits } from '@mcp-lambda/bridge';
import { CDK_JSON_CONTEXT, newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

const CALLBACK = 'https://abc.execute-api.eu-west-1.amazonaws.com/oauth/callback';

/** A CognitoIssuer for the bridge's CALLBACK in a fresh stack, and its template. */
function build(props: Partial<CognitoIssuerProps> = {}) {
  const stack = newStack();
  const issuer = new CognitoIssuer(stack, 'Issuer', { callbackUrl: CALLBACK, ...props });
  return { stack, issuer, template: Template.fromStack(stack) };
}

describe('CognitoIssuer', () => {
  it('the user pool has managed login (ESSENTIALS), required TOTP MFA, strong passwords and no self sign-up', () => {
    build().template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true }) },
    });
  });

  it("the one app client is confidential, code flow only, openid and email, back to the bridge's callback only", () => {
    const { template } = build();
    const [, client] = only(template, 'AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({
      GenerateSecret: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email'],
      CallbackURLs: [CALLBACK],
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: 'ENABLED',
    });
    template.resourceCountIs('AWS::Cognito::UserPoolResourceServer', 0);
  });

  it("keeps the client's refresh tokens as long as a bridge session (the bridge re-checks the user with them)", () => {
    const [, client] = only(build().template, 'AWS::Cognito::UserPoolClient');
    const { RefreshTokenValidity, TokenValidityUnits } = client.Properties;
    const unit = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 }[
      TokenValidityUnits.RefreshToken as 'seconds' | 'minutes' | 'hours' | 'days'
    ];
    expect(RefreshTokenValidity * unit).toBe(BridgeLimits.refreshTtlSeconds);
  });

  it('copies the client secret into Secrets Manager for the bridge', () => {
    const { stack, issuer, template } = build();
    const [secretId] = only(template, 'AWS::SecretsManager::Secret');
    expect(stack.resolve(issuer.clientSecret.secretArn)).toEqual({ Ref: secretId });
  });

  it('the managed sign-in domain (version 2) is named after the stack and the account by default', () => {
    const { template } = build();
    const [, domain] = only(template, 'AWS::Cognito::UserPoolDomain');
    expect(domain.Properties.ManagedLoginVersion).toBe(2);
    expect(JSON.stringify(domain.Properties.Domain)).toContain('test-');
    expect(JSON.stringify(domain.Properties.Domain)).toContain('AWS::AccountId');
    template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 1);
  });

  it('the issuer is the user pool’s provider URL', () => {
    const { stack, issuer, template } = build();
    const [poolId] = only(template, 'AWS::Cognito::UserPool');
    expect(stack.resolve(issuer.issuer)).toEqual({ 'Fn::GetAtt': [poolId, 'ProviderURL'] });
  });

  it('is deleted with the stack by default; RETAIN keeps it and turns on deletion protection', () => {
    const [, byDefault] = only(build().template, 'AWS::Cognito::UserPool');
    expect(byDefault.DeletionPolicy).toBe('Delete');
    expect(byDefault.Properties.DeletionProtection).toBe('INACTIVE');
    const [, retained] = only(
      build({ removalPolicy: RemovalPolicy.RETAIN }).template,
      'AWS::Cognito::UserPool',
    );
    expect(retained.DeletionPolicy).toBe('Retain');
    expect(retained.Properties.DeletionProtection).toBe('ACTIVE');
  });

  it('featurePlan PLUS and domainPrefix reach the pool and the domain', () => {
    const { template } = build({ featurePlan: cognito.FeaturePlan.PLUS, domainPrefix: 'acme-mcp' });
    template.hasResourceProperties('AWS::Cognito::UserPool', { UserPoolTier: 'PLUS' });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-mcp' });
  });

  it.each<[string, Partial<CognitoIssuerProps>, RegExp]>([
    ['the LITE plan (no managed login)', { featurePlan: cognito.FeaturePlan.LITE }, /not LITE/],
    [
      'a prefix with "aws"',
      { domainPrefix: 'my-aws-login' },
      /must not contain "aws", "amazon" or "cognito"/,
    ],
    ['a prefix with capitals', { domainPrefix: 'Acme' }, /must be 1-63 of a-z 0-9 and hyphens/],
  ])('refuses %s', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});

describe('Cognito domain prefixes from stack names', () => {
  it.each([
    ['McpServer', 'mcpserver-123456789012'],
    ['AwsMcpServer', 'mcpserver-123456789012'],
    ['my-amazon-cognito-tools', 'my-tools-123456789012'],
    ['AWS', 'mcp-123456789012'],
    ['Team_Tools.v2', 'team-tools-v2-123456789012'],
  ])('%s gives %s, which Cognito accepts', (stackName, prefix) => {
    expect(defaultDomainPrefix(stackName, '123456789012')).toBe(prefix);
    expect(domainPrefixProblem(prefix)).toBeUndefined();
  });

  it('a stack named with "aws" synthesizes a prefix without it', () => {
    const app = new App({ context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(app, 'AwsCognitoMcp', { env: { account: '123456789012', region: 'eu-west-1' } });
    new CognitoIssuer(stack, 'Issuer', { callbackUrl: CALLBACK });
    Template.fromStack(stack).hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: 'mcp-123456789012',
    });
  });
});
