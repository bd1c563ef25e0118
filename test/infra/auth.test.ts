import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it, vi } from 'vitest';
import { applyAuthDefault, readSettings, type ContextKey } from '@mcp-lambda/cdk';
import type { McpStackProps } from '../../infra/stack.ts';
import { synthStack } from './synth.ts';

/**
 * Authorization in the deployed stack: tokens are validated inside the MCP function (so it alone shapes the 401
 * and its WWW-Authenticate challenge), never by an API Gateway authorizer; an open endpoint is only ever deployed
 * when someone asked for it.
 */

const ISSUER = 'https://login.example.com/tenant';

function mcpEnvironment(template: Template): Record<string, unknown> {
  const functions = template.findResources('AWS::Lambda::Function', {
    Properties: { Description: Match.stringLikeRegexp('^Stateless MCP server') },
  });
  return Object.values(functions)[0]!.Properties.Environment.Variables;
}

/** A CloudFormation value as readable text: references become `<Id>` / `<Id.Attribute>`, joins are joined. */
function render(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if (v.Ref) return `<${v.Ref}>`;
  if (v['Fn::GetAtt']) return `<${v['Fn::GetAtt'].join('.')}>`;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map(render).join(v['Fn::Join'][0]);
  return JSON.stringify(value);
}
const API_URL = /^https:\/\/<McpHttpApi\w+>\.execute-api\.<AWS::Region>\.<AWS::URLSuffix>\/mcp$/;

const routeKeys = (template: Template) =>
  Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
    .map((r) => r.Properties.RouteKey as string)
    .sort();

function nagFindings(props: McpStackProps): string[] {
  const { app } = synthStack(props);
  const report = new AwsSolutionsChecks(app).validateScope(app);
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath}`),
  );
}

/** The three authorization choices, each synthesized afresh by the test that asks for it. */
const open = () => synthStack({ endpoint: { auth: { mode: 'none' } } }).template;
const withIssuer = () =>
  synthStack({
    endpoint: { auth: { mode: 'oauth', issuer: ISSUER, requiredScopes: ['mcp:tools'] } },
  }).template;
const withCognito = () => synthStack({ endpoint: { auth: { mode: 'oauth', cognito: {} } } }).template;

describe('authorization mechanism of the stack', () => {
  it.each([
    ['auth none', open],
    ['auth oauth with an issuer', withIssuer],
    ['auth oauth with Cognito', withCognito],
  ])('%s has no API Gateway authorizer: every route reaches the function, which decides', (_, synth) => {
    const template = synth();
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    for (const route of Object.values(template.findResources('AWS::ApiGatewayV2::Route'))) {
      expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    }
  });

  it('auth none gives the function no MCP_AUTH settings and serves no metadata routes', () => {
    const template = open();
    expect(Object.keys(mcpEnvironment(template)).filter((k) => k.startsWith('MCP_AUTH_'))).toEqual([]);
    expect(routeKeys(template)).toEqual(['DELETE /mcp', 'GET /mcp', 'POST /mcp']);
  });

  it('auth oauth gives the function the issuer, the endpoint URL as resource, and the required scopes', () => {
    const environment = mcpEnvironment(withIssuer());
    expect(environment).toMatchObject({
      MCP_AUTH_MODE: 'oauth',
      MCP_AUTH_ISSUER: ISSUER,
      MCP_AUTH_REQUIRED_SCOPES: 'mcp:tools',
    });
    expect(render(environment.MCP_AUTH_RESOURCE)).toMatch(API_URL);
  });

  it('auth oauth routes GET for both RFC 9728 metadata paths to the function', () => {
    expect(routeKeys(withIssuer())).toEqual([
      'DELETE /mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/mcp',
      'GET /mcp',
      'POST /mcp',
    ]);
  });

  it('a custom resource URL decides the metadata path and is passed on as is', () => {
    const { template } = synthStack({
      endpoint: { auth: { mode: 'oauth', issuer: ISSUER, resource: 'https://mcp.example.com/v1/mcp' } },
    });
    expect(mcpEnvironment(template).MCP_AUTH_RESOURCE).toBe('https://mcp.example.com/v1/mcp');
    expect(routeKeys(template)).toContain('GET /.well-known/oauth-protected-resource/v1/mcp');
  });

  it('lets allowed browser origins read the challenge and fetch the metadata', () => {
    const { template } = synthStack({
      endpoint: { allowedOrigins: ['https://app.example.com'], auth: { mode: 'oauth', issuer: ISSUER } },
    });
    const api = Object.values(template.findResources('AWS::ApiGatewayV2::Api'))[0]!;
    expect(api.Properties.CorsConfiguration).toMatchObject({
      AllowOrigins: ['https://app.example.com'],
      AllowMethods: ['POST', 'GET'],
      ExposeHeaders: ['www-authenticate', 'mcp-session-id'],
    });
  });

  it('with Cognito there is one pool, no resource server, and one confidential client (details: cognito-issuer.test.ts)', () => {
    const template = withCognito();
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    template.resourceCountIs('AWS::Cognito::UserPoolResourceServer', 0);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', { GenerateSecret: true });
  });

  it('with Cognito the function trusts the bridge on this API as issuer, its key set, and requires mcp', () => {
    const env = mcpEnvironment(withCognito());
    expect(render(env.MCP_AUTH_ISSUER)).toMatch(/^<McpHttpApi\w+\.ApiEndpoint>$/);
    expect(render(env.MCP_AUTH_JWKS_URL)).toMatch(/^<McpHttpApi\w+\.ApiEndpoint>\/oauth\/jwks$/);
    expect(env.MCP_AUTH_REQUIRED_SCOPES).toBe('mcp');
  });

  it('with Cognito the outputs name the bridge, the metadata URL, the pool, how to add a user, the sign-in URL and how to sign one out', () => {
    const outputs = Object.keys(withCognito().findOutputs('*'));
    expect(outputs).toEqual(
      expect.arrayContaining([
        'AuthorizationServer',
        'ProtectedResourceMetadataUrl',
        'CognitoUserPoolId',
        'CreateUserCommand',
        'CognitoSignInUrl',
        'AuthorizationBridgeLogGroupName',
        'SignOutCommand',
      ]),
    );
    expect(outputs).not.toContain('CognitoClientId');
  });

  it.each<[string, McpStackProps]>([
    ['auth oauth with an issuer', { endpoint: { auth: { mode: 'oauth', issuer: ISSUER } } }],
    ['auth oauth with Cognito', { endpoint: { auth: { mode: 'oauth', cognito: {} } } }],
  ])('%s has no unacknowledged cdk-nag finding', (_, props) => {
    expect(nagFindings(props)).toEqual([]);
  });

  it('warns loudly at synth when the construct is used without an authorization choice', () => {
    // The synth prints its warnings (the CDK's validation report) on stderr: read them here, not in the test log.
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void printed.push(args.join(' ')));
    try {
      const { stack } = synthStack();
      expect(printed.join('\n')).toContain('No authorization chosen');
      const warnings = Annotations.fromStack(stack).findWarning(
        '*',
        Match.stringLikeRegexp('No authorization chosen'),
      );
      expect(warnings).toHaveLength(1);
      const explicit = synthStack({ endpoint: { auth: { mode: 'none' } } }).stack;
      expect(
        Annotations.fromStack(explicit).findWarning('*', Match.stringLikeRegexp('No authorization')),
      ).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it.each<[string, McpStackProps, RegExp]>([
    [
      'oauth with both an issuer and Cognito',
      { endpoint: { auth: { mode: 'oauth', issuer: ISSUER, cognito: {} } } },
      /exactly one of issuer and cognito/,
    ],
    ['oauth with neither', { endpoint: { auth: { mode: 'oauth' } } }, /exactly one of issuer and cognito/],
    [
      'oauth on a named stage without a custom resource URL',
      { endpoint: { stageName: 'prod', auth: { mode: 'oauth', issuer: ISSUER } } },
      /needs the \$default stage/,
    ],
    [
      'a plain-http issuer',
      { endpoint: { auth: { mode: 'oauth', issuer: 'http://login.example.com' } } },
      /MCP_AUTH_ISSUER must be an https URL/,
    ],
    [
      'a scope with a quote',
      { endpoint: { auth: { mode: 'oauth', issuer: ISSUER, requiredScopes: ['a"b'] } } },
      /MCP_AUTH_REQUIRED_SCOPES has an invalid scope/,
    ],
  ])('refuses to synthesize %s', (_, props, message) => {
    expect(() => synthStack(props)).toThrow(message);
  });
});

describe('authorization settings from CDK context', () => {
  const settings = (context: Partial<Record<ContextKey, unknown>>) => readSettings((key) => context[key]);

  it('protects the endpoint with a new Cognito issuer unless auth=none is given explicitly', () => {
    expect(applyAuthDefault(settings({})).endpoint.auth).toEqual({ mode: 'oauth', cognito: {} });
    expect(applyAuthDefault(settings({ auth: 'none' })).endpoint.auth).toEqual({ mode: 'none' });
    const issuer = applyAuthDefault(settings({ auth: 'oauth', authIssuer: 'https://issuer.example.com' }));
    expect(issuer.endpoint.auth).toMatchObject({ mode: 'oauth', issuer: 'https://issuer.example.com' });
  });

  it.each<[string, Partial<Record<ContextKey, unknown>>, unknown]>([
    ['auth none', { auth: 'none' }, { mode: 'none' }],
    ['an issuer', { auth: 'oauth', authIssuer: ISSUER }, { mode: 'oauth', issuer: ISSUER }],
    [
      'every oauth setting (-c strings)',
      {
        auth: 'OAUTH',
        authIssuer: ISSUER,
        authResource: 'https://mcp.example.com/mcp',
        authAudiences: 'https://mcp.example.com/mcp, api://mcp',
        authScopes: 'mcp:tools,mcp:read',
        authJwksUrl: 'https://login.example.com/keys',
      },
      {
        mode: 'oauth',
        issuer: ISSUER,
        resource: 'https://mcp.example.com/mcp',
        audiences: ['https://mcp.example.com/mcp', 'api://mcp'],
        requiredScopes: ['mcp:tools', 'mcp:read'],
        jwksUrl: 'https://login.example.com/keys',
      },
    ],
    [
      'Cognito with its settings (cdk.json types)',
      { auth: 'oauth', authCognito: true, authCognitoDomainPrefix: 'acme-mcp' },
      { mode: 'oauth', cognito: { domainPrefix: 'acme-mcp' } },
    ],
    [
      'OAuth settings without auth as auth=oauth with Cognito (honoured, not dropped)',
      { authScopes: 'mcp:tools' },
      { mode: 'oauth', cognito: {}, requiredScopes: ['mcp:tools'] },
    ],
    [
      'an issuer without auth as auth=oauth with that issuer',
      { authIssuer: ISSUER },
      { mode: 'oauth', issuer: ISSUER },
    ],
    [
      'a domain prefix without auth as auth=oauth with Cognito',
      { authCognitoDomainPrefix: 'acme-mcp' },
      { mode: 'oauth', cognito: { domainPrefix: 'acme-mcp' } },
    ],
  ])('reads %s', (_, context, auth) => {
    expect(settings(context).endpoint.auth).toEqual(auth);
  });

  it.each<[string, Partial<Record<ContextKey, unknown>>, RegExp]>([
    ['an unknown mode', { auth: 'jwt' }, /"auth" must be "oauth" or "none"/],
    ['oauth without an issuer or Cognito', { auth: 'oauth' }, /"authIssuer" must be an issuer URL/],
    ['oauth with both', { auth: 'oauth', authIssuer: ISSUER, authCognito: 'true' }, /"authIssuer"/],
    ['an issuer with auth none', { auth: 'none', authIssuer: ISSUER }, /"authIssuer" must be left out/],
    [
      'Cognito settings without Cognito',
      { auth: 'oauth', authIssuer: ISSUER, authCognitoDomainPrefix: 'x' },
      /used only with authCognito=true/,
    ],
    [
      'a non-boolean Cognito flag',
      { auth: 'oauth', authCognito: 'yes' },
      /"authCognito" must be true or false/,
    ],
    [
      'Cognito callback URLs (the bridge owns the only callback)',
      { authCognitoCallbackUrls: 'https://claude.ai/api/mcp/auth_callback' },
      /"authCognitoCallbackUrls" must be left out: the Cognito app client has one callback/,
    ],
    ['OAuth scopes with auth none', { auth: 'none', authScopes: 'mcp' }, /"authScopes" must be left out/],
    ['an alarm email that is not an address', { alarmEmail: 'ops' }, /"alarmEmail" must be an email address/],
    [
      'an alarm email beside an alarm topic',
      { alarmEmail: 'ops@example.com', alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:alarms' },
      /"alarmEmail" must be left out when alarmTopicArn is set/,
    ],
  ])('refuses %s and names the context key', (_, context, message) => {
    expect(() => settings(context)).toThrow(message);
  });
});

describe('authorization behind the streaming REST API', () => {
  const restRoutes = (template: Template) => {
    const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;
    const pathOf = (ref: { Ref?: string }): string =>
      ref.Ref
        ? `${pathOf(resources[ref.Ref]!.Properties.ParentId)}/${resources[ref.Ref]!.Properties.PathPart}`
        : '';
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::ApiGateway::Method')
      .map((m) => `${m.Properties.HttpMethod} ${pathOf(m.Properties.ResourceId)}`)
      .sort();
  };
  const API = '<McpRestApi\\w+>\\.execute-api\\.<AWS::Region>\\.<AWS::URLSuffix>';

  it('the metadata lives inside the stage, and the challenges say so (MCP_AUTH_METADATA_URL)', () => {
    const { template } = synthStack({
      endpoint: { api: 'rest-streaming', auth: { mode: 'oauth', issuer: ISSUER } },
    });
    const environment = mcpEnvironment(template);
    expect(render(environment.MCP_AUTH_RESOURCE)).toMatch(new RegExp(`^https://${API}/prod/mcp$`));
    expect(render(environment.MCP_AUTH_METADATA_URL)).toMatch(
      new RegExp(`^https://${API}/prod/\\.well-known/oauth-protected-resource/prod/mcp$`),
    );
    expect(restRoutes(template)).toEqual([
      'DELETE /mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/prod/mcp',
      'GET /mcp',
      'POST /mcp',
    ]);
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 0);
  });

  it('the authorization bridge gets an HTTP API of its own: an issuer must serve the root of its origin', () => {
    const { template } = synthStack({
      endpoint: { api: 'rest-streaming', auth: { mode: 'oauth', cognito: {} } },
    });
    const [authorizationApiId] = Object.entries(template.findResources('AWS::ApiGatewayV2::Api')).map(
      ([id]) => id,
    );
    expect(authorizationApiId).toMatch(/^McpAuthorizationApi/);
    expect(render(mcpEnvironment(template).MCP_AUTH_ISSUER)).toBe(`<${authorizationApiId}.ApiEndpoint>`);
    const bridgeRoutes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    expect(bridgeRoutes).toContain('GET /.well-known/oauth-authorization-server');
    expect(restRoutes(template)).not.toContain('GET /.well-known/oauth-authorization-server');
  });

  it('the ProtectedResourceMetadataUrl output is that URL', () => {
    const { template } = synthStack({
      endpoint: { api: 'rest-streaming', auth: { mode: 'oauth', cognito: {} } },
    });
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(render(outputs.ProtectedResourceMetadataUrl!.Value)).toMatch(
      new RegExp(`^https://${API}/prod/\\.well-known/oauth-protected-resource/prod/mcp$`),
    );
  });

  it('a custom domain resource keeps the RFC 9728 location, with no override', () => {
    const { template } = synthStack({
      endpoint: {
        api: 'rest-streaming',
        auth: { mode: 'oauth', issuer: ISSUER, resource: 'https://mcp.example.com/mcp' },
      },
    });
    expect(mcpEnvironment(template).MCP_AUTH_METADATA_URL).toBeUndefined();
    expect(restRoutes(template)).toContain('GET /.well-known/oauth-protected-resource/mcp');
  });

  it.each([
    ['an issuer', { auth: { mode: 'oauth', issuer: ISSUER } }],
    ['Cognito', { auth: { mode: 'oauth', cognito: {} } }],
  ] as const)('with %s it has no unacknowledged cdk-nag finding', (_, endpoint) => {
    expect(nagFindings({ endpoint: { api: 'rest-streaming', ...endpoint } })).toEqual([]);
  });
});
