import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { applyAuthDefault, readSettings } from '@mcp-lambda/cdk';
import type { McpStackProps } from '../../infra/stack.ts';
import { BRIDGE_ROUTE_KEYS } from '@mcp-lambda/cdk/testing';
import { synthStack } from './synth.ts';

/**
 * The authorization bridge in the deployed stack: what `npx cdk deploy` with no auth flags creates (the bridge in
 * front of a new Cognito pool), its function, routes, table, key, secrets and least-privilege role, and the deploy
 * setting fixes that came with it (Cognito domain prefixes, an alarm email).
 */

/** The template `npx cdk deploy` synthesizes with no context at all. */
const defaultProps = (): McpStackProps => {
  const settings = applyAuthDefault(readSettings(() => undefined));
  return { endpoint: settings.endpoint };
};
const template = synthStack(defaultProps()).template;

const resources = (t: Template, type: string) => Object.entries(t.findResources(type));
const bridgeFunction = (t: Template) =>
  resources(t, 'AWS::Lambda::Function').find(([, r]) => JSON.stringify(r).includes('BRIDGE_ISSUER'))!;
const functionIds = (t: Template, needle: string) =>
  resources(t, 'AWS::Lambda::Function')
    .filter(([, r]) => String(r.Properties.Description ?? '').startsWith(needle))
    .map(([id]) => id);

function nag(props: McpStackProps): string[] {
  const { app } = synthStack(props);
  return new AwsSolutionsChecks(app)
    .validateScope(app)
    .violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`));
}

describe('the default deploy (no auth flags): the bridge in front of a new Cognito pool', () => {
  it("gives the Cognito app client exactly one callback: the bridge's, on this API", () => {
    const clients = resources(template, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    const [apiId] = resources(template, 'AWS::ApiGatewayV2::Api')[0]!;
    expect(clients[0]![1].Properties.CallbackURLs).toEqual([
      { 'Fn::Join': ['', [{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }, '/oauth/callback']] },
    ]);
    expect(clients[0]![1].Properties).toMatchObject({ GenerateSecret: true, AllowedOAuthFlows: ['code'] });
  });

  it('names the bridge as the authorization server of the protected resource, with its key set', () => {
    const [, mcp] = resources(template, 'AWS::Lambda::Function').find(([, r]) =>
      String(r.Properties.Description).startsWith('Stateless MCP server'),
    )!;
    const [, bridge] = bridgeFunction(template);
    const mcpEnv = mcp.Properties.Environment.Variables;
    const bridgeEnv = bridge.Properties.Environment.Variables;
    expect(mcpEnv.MCP_AUTH_ISSUER).toEqual(bridgeEnv.BRIDGE_ISSUER);
    expect(mcpEnv.MCP_AUTH_RESOURCE).toEqual(bridgeEnv.BRIDGE_RESOURCE);
    expect(mcpEnv.MCP_AUTH_JWKS_URL).toEqual({ 'Fn::Join': ['', [bridgeEnv.BRIDGE_ISSUER, '/oauth/jwks']] });
  });

  it('routes the OAuth endpoints and the authorization server metadata to the bridge only', () => {
    const [bridgeId] = bridgeFunction(template);
    const routes = resources(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties);
    const integrations = Object.fromEntries(resources(template, 'AWS::ApiGatewayV2::Integration'));
    const target = (route: { Target: { 'Fn::Join': [string, unknown[]] } }) =>
      JSON.stringify(integrations[(route.Target['Fn::Join'][1][1] as { Ref: string }).Ref]);
    const bridgeRoutes = routes.filter((r) => target(r).includes(bridgeId)).map((r) => r.RouteKey as string);
    expect(bridgeRoutes.sort()).toEqual(BRIDGE_ROUTE_KEYS);
    for (const route of routes.filter((r) => !bridgeRoutes.includes(r.RouteKey)))
      expect(route.RouteKey).toMatch(/ \/mcp$| \/\.well-known\/oauth-protected-resource/);
  });

  it("grants the bridge's role item access to its table, sign and public key on its key, and its two secrets: nothing else", () => {
    const [, bridge] = bridgeFunction(template);
    const roleId = bridge.Properties.Role['Fn::GetAtt'][0];
    const policies = resources(template, 'AWS::IAM::Policy').filter(([, p]) =>
      p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId),
    );
    const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((s) => [s.Action].flat()).sort();
    expect(actions).toEqual([
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'kms:GetPublicKey',
      'kms:Sign',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
    ]);
    for (const statement of statements) expect(JSON.stringify(statement.Resource)).not.toContain('"*"');
  });

  it("gives the MCP function no access to the bridge table, the key or the bridge's secrets (only its own session key)", () => {
    const mcpRole = resources(template, 'AWS::Lambda::Function').find(([, r]) =>
      String(r.Properties.Description).startsWith('Stateless MCP server'),
    )![1].Properties.Role['Fn::GetAtt'][0];
    const statements = resources(template, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === mcpRole))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]);
    // Its only table is the task table (the tasks extension), never the bridge's.
    const taskTable = resources(template, 'AWS::DynamoDB::Table').find(([id]) => id.includes('Tasks'))![0];
    const sessionKey = resources(template, 'AWS::SecretsManager::Secret').find(([id]) =>
      id.includes('Sessions'),
    )![0];
    for (const statement of statements) {
      const actions = JSON.stringify(statement.Action);
      expect(actions).not.toMatch(/kms:/);
      if (actions.includes('secretsmanager:')) expect(statement.Resource).toEqual({ Ref: sessionKey });
      if (actions.includes('dynamodb:'))
        expect(statement.Resource).toEqual({ 'Fn::GetAtt': [taskTable, 'Arn'] });
    }
  });

  it('has no unacknowledged cdk-nag finding', () => {
    expect(nag(defaultProps())).toEqual([]);
  });

  it('tells the user what to paste where: endpoint, authorization server, pool and how to add a user', () => {
    const outputs = template.findOutputs('*');
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining([
        'McpEndpointUrl',
        'AuthorizationServer',
        'CreateUserCommand',
        'CognitoUserPoolId',
      ]),
    );
  });
});

describe('other authorization choices', () => {
  it('with an issuer of your own, no bridge resources exist', () => {
    const { template: own } = synthStack({
      endpoint: { auth: { mode: 'oauth', issuer: 'https://login.example.com' } },
    });
    // The one table left is the task table of the tasks extension.
    own.resourceCountIs('AWS::DynamoDB::Table', 1);
    own.resourceCountIs('AWS::KMS::Key', 0);
    own.resourceCountIs('AWS::Cognito::UserPool', 0);
    expect(functionIds(own, 'MCP authorization bridge')).toEqual([]);
  });

  it('with a custom resource URL, the bridge issuer and callback are on that origin', () => {
    const { template: custom } = synthStack({
      endpoint: { auth: { mode: 'oauth', cognito: {}, resource: 'https://mcp.example.com/mcp' } },
    });
    const env = bridgeFunction(custom)[1].Properties.Environment.Variables;
    expect(env.BRIDGE_ISSUER).toBe('https://mcp.example.com');
    custom.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      CallbackURLs: ['https://mcp.example.com/oauth/callback'],
    });
  });
});

describe('alarm email', () => {
  it('creates a TLS-only topic with the email subscription and points every alarm at it', () => {
    const { template: t } = synthStack({
      endpoint: { auth: { mode: 'none' } },
      alarmEmail: 'ops@example.com',
    });
    t.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    const [topicId] = resources(t, 'AWS::SNS::Topic')[0]!;
    for (const [, alarm] of resources(t, 'AWS::CloudWatch::Alarm'))
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    t.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny' })]) },
    });
    expect(nag({ endpoint: { auth: { mode: 'none' } }, alarmEmail: 'ops@example.com' })).toEqual([]);
  });
});
