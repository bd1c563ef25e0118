import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { McpHttpApi, type McpHttpApiProps } from '../../../src/mcp-http-api.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

/** An McpHttpApi in front of a stand-in function, in a fresh stack, and its template. */
function build(props: Partial<McpHttpApiProps> = {}) {
  const stack = newStack();
  const handler = new lambda.Function(stack, 'Handler', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('export const handler = async () => ({ statusCode: 200 });'),
  });
  const api = new McpHttpApi(stack, 'Api', { handler, ...props });
  const template = Template.fromStack(stack);
  const handlerId = stack.getLogicalId(handler.node.defaultChild as lambda.CfnFunction);
  return { stack, api, template, handlerId };
}

const routeKeys = (template: Template) =>
  Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
    .map((r) => r.Properties.RouteKey as string)
    .sort();

/** The log group the stage writes its access log to. */
function accessLogGroup(template: Template) {
  const [, stage] = only(template, 'AWS::ApiGatewayV2::Stage');
  return template.toJSON().Resources[stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][0]];
}

describe('McpHttpApi', () => {
  it('routes exactly POST, GET and DELETE /mcp to the function (which answers GET and DELETE with 405)', () => {
    const { template, api } = build();
    expect(routeKeys(template)).toEqual(['DELETE /mcp', 'GET /mcp', 'POST /mcp']);
    expect(api.path).toBe('/mcp');
  });

  it('the integration is a Lambda proxy (payload 2.0) that waits 30 s, the HTTP API maximum', () => {
    const { template, handlerId } = build();
    const [, integration] = only(template, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [handlerId, 'Arn'] },
      TimeoutInMillis: 30_000,
    });
  });

  it('only API Gateway may invoke the function, and only from this API', () => {
    const { template, handlerId } = build();
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission'));
    expect(permissions.length).toBeGreaterThan(0);
    const [apiId] = only(template, 'AWS::ApiGatewayV2::Api');
    for (const p of permissions) {
      expect(p.Properties).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [handlerId, 'Arn'] },
      });
      expect(JSON.stringify(p.Properties.SourceArn)).toContain(apiId);
    }
  });

  it('serves the $default stage with automatic deployment and throttling of 50 requests per second, burst 100', () => {
    const [, stage] = only(build().template, 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });

  it('writes one JSON access-log line per request, with the request id, status and Lambda request id', () => {
    const [, stage] = only(build().template, 'AWS::ApiGatewayV2::Stage');
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      lambdaRequestId: '$context.integration.requestId',
    });
    expect(stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][1]).toBe('Arn');
  });

  it('the access log group keeps logs one month and is deleted with the stack, unless told otherwise', () => {
    const byDefault = accessLogGroup(build().template);
    expect(byDefault).toMatchObject({ Properties: { RetentionInDays: 30 }, DeletionPolicy: 'Delete' });
    const set = accessLogGroup(
      build({ accessLogRetention: RetentionDays.ONE_WEEK, removalPolicy: RemovalPolicy.RETAIN }).template,
    );
    expect(set).toMatchObject({ Properties: { RetentionInDays: 7 }, DeletionPolicy: 'Retain' });
  });

  it('answers no CORS preflight when no browser origin is allowed', () => {
    const [, api] = only(build().template, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
    expect(api.Properties.ProtocolType).toBe('HTTP');
  });

  it('allowed origins become the only origins of the CORS preflight, for POST, with the MCP headers', () => {
    const origins = ['https://app.example.com', 'http://localhost:6274'];
    const [, api] = only(build({ allowedOrigins: origins }).template, 'AWS::ApiGatewayV2::Api');
    const cors = api.Properties.CorsConfiguration;
    expect(cors).toMatchObject({ AllowOrigins: origins, AllowMethods: ['POST'] });
    expect(cors.AllowCredentials).toBeUndefined();
    expect(cors.AllowHeaders).toEqual(
      expect.arrayContaining([
        'content-type',
        'authorization',
        'mcp-protocol-version',
        'mcp-method',
        'mcp-name',
        'mcp-session-id',
      ]),
    );
  });

  it('metadata paths add GET routes to the same function, and GET to the CORS preflight', () => {
    const paths = ['/.well-known/oauth-protected-resource/mcp'];
    const { template } = build({ metadataPaths: paths, allowedOrigins: ['https://app.example.com'] });
    expect(routeKeys(template)).toEqual([
      'DELETE /mcp',
      'GET /.well-known/oauth-protected-resource/mcp',
      'GET /mcp',
      'POST /mcp',
    ]);
    template.resourceCountIs('AWS::ApiGatewayV2::Integration', 1);
    const [, api] = only(template, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toMatchObject({
      AllowMethods: ['POST', 'GET'],
      ExposeHeaders: ['www-authenticate', 'mcp-session-id'],
    });
  });

  it('a named stage and a path set the stage, the routes and the URL', () => {
    const { template, api, stack } = build({ stageName: 'prod', path: '/v1/mcp' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'prod' });
    expect(routeKeys(template)).toContain('POST /v1/mcp');
    expect(JSON.stringify(stack.resolve(api.url))).toContain('"/prod/v1/mcp"');
  });

  it('throttling limits reach the stage', () => {
    const { template } = build({ throttleRateLimit: 5, throttleBurstLimit: 10 });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    });
  });

  it.each<[string, Partial<McpHttpApiProps>, RegExp]>([
    ['a stage name with a space', { stageName: 'my stage' }, /stage name "my stage" must be/],
    [
      'an origin pattern API Gateway cannot express',
      { allowedOrigins: ['http://localhost:*'] },
      /not an exact origin/,
    ],
    ['a zero rate limit', { throttleRateLimit: 0 }, /throttleRateLimit must be/],
    ['a fractional burst limit', { throttleBurstLimit: 1.5 }, /throttleBurstLimit must be/],
  ])('refuses %s and names the setting', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});
