import { RemovalPolicy } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { describe, expect, it } from 'vitest';
import { CognitoIssuer, type CognitoIssuerProps } from '../../../infra/constructs/cognito-issuer.ts';
import { newStack } from '../synth.ts';
import { only } from '../template.ts';

const RESOURCE = 'https://mcp.example.com/mcp';

/** A CognitoIssuer for RESOURCE in a fresh stack, and its template. */
function build(props: Partial<CognitoIssuerProps> = {}) {
  const stack = newStack();
  const issuer = new CognitoIssuer(stack, 'Issuer', { resource: RESOURCE, ...props });
  return { stack, issuer, template: Template.fromStack(stack) };
}

describe('CognitoIssuer', () => {
  it('the user pool has resource indicators (ESSENTIALS), required TOTP MFA, strong passwords and no self sign-up', () => {
    build().template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolTier: 'ESSENTIALS',
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true }) },
    });
  });

  it('the resource server is the endpoint URL with one scope, `tools`, which the issuer requires', () => {
    const { template, issuer } = build();
    template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: RESOURCE,
      Scopes: [Match.objectLike({ ScopeName: 'tools' })],
    });
    expect(issuer.scope).toBe(`${RESOURCE}/tools`);
  });

  it('the app client is public and uses the authorization code flow, back to the MCP Inspector by default', () => {
    build().template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      CallbackURLs: ['http://localhost:6274/oauth/callback'],
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: 'ENABLED',
    });
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

  it('scopeName, callbackUrls and domainPrefix reach the resource server, the client and the domain', () => {
    const { template, issuer } = build({
      scopeName: 'mcp.call',
      callbackUrls: ['https://claude.ai/api/mcp/auth_callback'],
      domainPrefix: 'acme-mcp',
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Scopes: [Match.objectLike({ ScopeName: 'mcp.call' })],
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      CallbackURLs: ['https://claude.ai/api/mcp/auth_callback'],
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-mcp' });
    expect(issuer.scope).toBe(`${RESOURCE}/mcp.call`);
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

  it('featurePlan PLUS reaches the user pool', () => {
    build({ featurePlan: cognito.FeaturePlan.PLUS }).template.hasResourceProperties(
      'AWS::Cognito::UserPool',
      {
        UserPoolTier: 'PLUS',
      },
    );
  });

  it.each<[string, Partial<CognitoIssuerProps>, RegExp]>([
    [
      'the LITE plan (no resource indicators)',
      { featurePlan: cognito.FeaturePlan.LITE },
      /LITE plan has no resource indicators/,
    ],
    ['a scope name with a space', { scopeName: 'call tools' }, /scope name "call tools" must be/],
  ])('refuses %s', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});
