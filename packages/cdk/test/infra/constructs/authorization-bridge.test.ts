import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as rest from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { describe, expect, it } from 'vitest';
import { AuthorizationBridge, type AuthorizationBridgeProps } from '../../../src/authorization-bridge.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { lambdaFunction, only } from '../../../src/testing/template.ts';
import { BRIDGE_ROUTE_KEYS } from '../../../src/testing/bridge-routes.ts';

const ISSUER = 'https://abc.execute-api.eu-west-1.amazonaws.com';

/** An AuthorizationBridge on a fresh HTTP API with a stand-in upstream secret, and its template. */
function build(props: Partial<AuthorizationBridgeProps> = {}) {
  const stack = newStack();
  const httpApi = new apigw.HttpApi(stack, 'Api');
  const upstreamSecret = new secretsmanager.Secret(stack, 'UpstreamSecret');
  const bridge = new AuthorizationBridge(stack, 'Bridge', {
    httpApi,
    issuer: ISSUER,
    resource: `${ISSUER}/mcp`,
    upstream: {
      issuer: 'https://login.example.com',
      clientId: 'bridge-client',
      clientSecret: upstreamSecret,
    },
    ...props,
  });
  const template = Template.fromStack(stack);
  return { stack, bridge, template, fn: lambdaFunction(template, 'MCP authorization bridge') };
}

describe('AuthorizationBridge', () => {
  it('runs in its own Node.js 22 function with the settings it reads and no loopback CIMD switch', () => {
    const { fn } = build();
    expect(fn.resource.Properties).toMatchObject({ Runtime: 'nodejs22.x', MemorySize: 512, Timeout: 15 });
    const env = fn.resource.Properties.Environment.Variables;
    expect(env).toMatchObject({
      BRIDGE_ISSUER: ISSUER,
      BRIDGE_RESOURCE: `${ISSUER}/mcp`,
      BRIDGE_SCOPES: 'mcp',
      BRIDGE_UPSTREAM_ISSUER: 'https://login.example.com',
      BRIDGE_UPSTREAM_CLIENT_ID: 'bridge-client',
      BRIDGE_UPSTREAM_SCOPES: 'openid,email',
    });
    expect(env.BRIDGE_CIMD_ALLOW_LOOPBACK).toBeUndefined();
  });

  it('with tracing: active tracing, spans of its requests and AWS calls sent to X-Ray (BRIDGE_TRACING), may send them', () => {
    const plain = build().fn;
    expect(plain.resource.Properties.TracingConfig).toBeUndefined();
    expect(JSON.stringify(plain.resource.Properties.Environment.Variables)).not.toMatch(/TRACING|OTEL_/);
    const { fn, template } = build({ tracing: true });
    expect(fn.resource.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(fn.resource.Properties.Environment.Variables).toMatchObject({
      BRIDGE_TRACING: 'on',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
        'Fn::Join': [
          '',
          ['https://xray.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/v1/traces'],
        ],
      },
    });
    expect(JSON.stringify(template.toJSON())).toContain('"xray:PutSpans","xray:PutSpansForIndexing"');
  });

  it('routes its OAuth endpoints and the authorization server metadata paths to its function', () => {
    const keys = Object.values(build().template.findResources('AWS::ApiGatewayV2::Route'))
      .map((r) => r.Properties.RouteKey as string)
      .sort();
    expect(keys).toEqual(BRIDGE_ROUTE_KEYS);
  });

  it('on a REST API (the streaming endpoint behind a custom domain): the same routes, as buffered proxy methods', () => {
    const stack = newStack();
    const restApi = new rest.RestApi(stack, 'Rest', { deployOptions: { stageName: 'prod' } });
    new AuthorizationBridge(stack, 'Bridge', {
      restApi,
      issuer: 'https://mcp.example.com',
      resource: 'https://mcp.example.com/mcp',
      upstream: {
        issuer: 'https://login.example.com',
        clientId: 'bridge-client',
        clientSecret: new secretsmanager.Secret(stack, 'UpstreamSecret'),
      },
    });
    const template = Template.fromStack(stack);
    const resources = template.findResources('AWS::ApiGateway::Resource');
    const pathOf = (id: string): string => {
      const r = resources[id];
      if (!r) return '';
      const parent = r.Properties.ParentId.Ref as string | undefined;
      return `${parent && resources[parent] ? pathOf(parent) : ''}/${r.Properties.PathPart}`;
    };
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')).map((m) => {
      expect(m.Properties.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(m.Properties.Integration.ResponseTransferMode).toBeUndefined();
      return `${m.Properties.HttpMethod} ${pathOf(m.Properties.ResourceId.Ref)}`;
    });
    expect(methods.sort()).toEqual(BRIDGE_ROUTE_KEYS);
  });

  it('needs exactly one API to put its routes on', () => {
    expect(() => build({ httpApi: undefined })).toThrow(/give exactly one of httpApi and restApi/);
  });

  it('keeps codes and refresh families in an on-demand table with a TTL attribute', () => {
    const [, table] = only(build().template, 'AWS::DynamoDB::Table');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    });
  });

  it('signs with an asymmetric ECC P-256 KMS key and keys sealed values with a generated 64-character secret', () => {
    const { template } = build();
    template.hasResourceProperties('AWS::KMS::Key', { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
  });

  it('grants item operations on its table, Sign and GetPublicKey on its key, and reading its two secrets: nothing else', () => {
    const { fn, stack, bridge } = build();
    const byAction = Object.fromEntries(
      fn.statements.map((s) => [[s.Action].flat().sort().join(' '), stack.resolve(s.Resource)]),
    );
    expect(Object.keys(byAction).sort()).toEqual([
      'dynamodb:GetItem dynamodb:PutItem dynamodb:UpdateItem',
      'kms:GetPublicKey kms:Sign',
      'logs:CreateLogStream logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
    ]);
    expect(byAction['dynamodb:GetItem dynamodb:PutItem dynamodb:UpdateItem']).toEqual(
      stack.resolve(bridge.table.tableArn),
    );
    expect(byAction['kms:GetPublicKey kms:Sign']).toEqual(stack.resolve(bridge.signingKey.keyArn));
    expect(byAction['secretsmanager:GetSecretValue']).toHaveLength(2);
    expect(JSON.stringify(fn.statements)).not.toContain('"*"');
  });

  it('is deleted with the stack by default; RETAIN keeps the table, the key and the secret', () => {
    const retained = build({ removalPolicy: RemovalPolicy.RETAIN }).template;
    for (const type of ['AWS::DynamoDB::Table', 'AWS::KMS::Key'])
      expect(only(retained, type)[1].DeletionPolicy).toBe('Retain');
    expect(only(build().template, 'AWS::DynamoDB::Table')[1].DeletionPolicy).toBe('Delete');
  });

  it('scopes, memory and timeout reach the function; a timeout past the HTTP API limit is refused', () => {
    const { fn } = build({
      scopes: ['mcp', 'reports:read'],
      memorySize: 1024,
      timeout: Duration.seconds(20),
    });
    expect(fn.resource.Properties).toMatchObject({ MemorySize: 1024, Timeout: 20 });
    expect(fn.resource.Properties.Environment.Variables.BRIDGE_SCOPES).toBe('mcp,reports:read');
    expect(() => build({ timeout: Duration.seconds(31) })).toThrow(/at most 30 seconds/);
  });
});
