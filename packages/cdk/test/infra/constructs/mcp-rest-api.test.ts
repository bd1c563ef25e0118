import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { McpRestApi, type McpRestApiProps } from '../../../src/mcp-rest-api.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only, type Resource } from '../../../src/testing/template.ts';

/** An McpRestApi in front of a stand-in function, in a fresh stack, and its template. */
function build(props: Partial<McpRestApiProps> = {}) {
  const stack = newStack();
  const handler = new lambda.Function(stack, 'Handler', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.streamingHandler',
    code: lambda.Code.fromInline('export const streamingHandler = async () => undefined;'),
  });
  const api = new McpRestApi(stack, 'Api', { handler, ...props });
  const template = Template.fromStack(stack);
  const handlerId = stack.getLogicalId(handler.node.defaultChild as lambda.CfnFunction);
  return { stack, api, template, handlerId };
}

/** Every method as `VERB /full/path`, from the resource tree of the template. */
function routes(template: Template): string[] {
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const pathOf = (ref: unknown): string => {
    const id = (ref as { Ref?: string }).Ref;
    if (!id) return ''; // the root resource (Fn::GetAtt RootResourceId)
    const r = resources[id]!;
    return `${pathOf(r.Properties.ParentId)}/${r.Properties.PathPart}`;
  };
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::ApiGateway::Method')
    .map((m) => `${m.Properties.HttpMethod} ${pathOf(m.Properties.ResourceId) || '/'}`)
    .sort();
}

/** The log group the stage writes its access log to. */
function accessLogGroup(template: Template): Resource {
  const [, stage] = only(template, 'AWS::ApiGateway::Stage');
  const destination = JSON.stringify(stage.Properties.AccessLogSetting.DestinationArn);
  const groups = Object.entries(template.findResources('AWS::Logs::LogGroup'));
  const found = groups.filter(([id]) => destination.includes(`"Ref":"${id}"`));
  expect(found).toHaveLength(1);
  return found[0]![1] as Resource;
}

const methods = (template: Template) =>
  Object.values(template.findResources('AWS::ApiGateway::Method')) as Resource[];

describe('McpRestApi', () => {
  it('routes exactly POST, GET and DELETE /mcp to the function (which answers GET and DELETE with 405)', () => {
    const { template, api } = build();
    expect(routes(template)).toEqual(['DELETE /mcp', 'GET /mcp', 'POST /mcp']);
    expect(api.path).toBe('/mcp');
  });

  it('every method is a Lambda proxy integration that streams (InvokeWithResponseStream) for up to 15 minutes', () => {
    const { template, handlerId } = build();
    for (const method of methods(template)) {
      expect(method.Properties.Integration).toMatchObject({
        Type: 'AWS_PROXY',
        IntegrationHttpMethod: 'POST',
        ResponseTransferMode: 'STREAM',
        TimeoutInMillis: 900_000,
      });
      const uri = JSON.stringify(method.Properties.Integration.Uri);
      expect(uri).toContain(':lambda:path/2021-11-15/functions/');
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).toContain(handlerId);
      expect(method.Properties.AuthorizationType).toBe('NONE');
    }
  });

  it('is Regional: an edge-optimized endpoint would close a quiet stream after 30 s', () => {
    const [, api] = only(build().template, 'AWS::ApiGateway::RestApi');
    expect(api.Properties.EndpointConfiguration).toEqual({ Types: ['REGIONAL'] });
  });

  it('only API Gateway may invoke the function, only from this API stage and each method, with no test invokes', () => {
    const { template, handlerId } = build();
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission')) as Resource[];
    expect(permissions).toHaveLength(3);
    const [apiId] = only(template, 'AWS::ApiGateway::RestApi');
    const [stageId] = only(template, 'AWS::ApiGateway::Stage');
    for (const p of permissions) {
      expect(p.Properties).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [handlerId, 'Arn'] },
      });
      const source = JSON.stringify(p.Properties.SourceArn);
      expect(source).toContain(apiId);
      expect(source).toContain(stageId);
    }
  });

  it('serves the prod stage with throttling of 50 requests per second, burst 100, and error-level execution logs', () => {
    const [, stage] = only(build().template, 'AWS::ApiGateway::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: 'prod',
      MethodSettings: [
        expect.objectContaining({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ],
    });
  });

  it('writes one JSON access-log line per request, with the request id, status and Lambda request id', () => {
    const { template } = build();
    const [, stage] = only(template, 'AWS::ApiGateway::Stage');
    expect(JSON.parse(stage.Properties.AccessLogSetting.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      lambdaRequestId: '$context.integration.requestId',
    });
    expect(accessLogGroup(template)).toMatchObject({
      Properties: { RetentionInDays: 30 },
      DeletionPolicy: 'Delete',
    });
  });

  it('the access log retention and removal policy can be set', () => {
    const { template } = build({
      accessLogRetention: RetentionDays.ONE_WEEK,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    expect(accessLogGroup(template)).toMatchObject({
      Properties: { RetentionInDays: 7 },
      DeletionPolicy: 'Retain',
    });
  });

  it('creates the account-level logging role REST API logs need, unless the account has one', () => {
    const { template } = build();
    const [, account] = only(template, 'AWS::ApiGateway::Account');
    expect(JSON.stringify(account.Properties.CloudWatchRoleArn)).toContain('CloudWatchRole');
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
    build({ cloudWatchRole: false }).template.resourceCountIs('AWS::ApiGateway::Account', 0);
  });

  it('answers no CORS preflight when no browser origin is allowed', () => {
    expect(routes(build().template)).not.toContain('OPTIONS /mcp');
  });

  it('allowed origins get a CORS preflight on the MCP path, for POST, GET and DELETE, with the MCP headers', () => {
    const origins = ['https://app.example.com'];
    const { template } = build({ allowedOrigins: origins, extraCorsHeaders: ['mcp-param-region'] });
    expect(routes(template)).toContain('OPTIONS /mcp');
    const preflight = methods(template).find((m) => m.Properties.HttpMethod === 'OPTIONS')!;
    expect(preflight.Properties.Integration.Type).toBe('MOCK');
    const headers = preflight.Properties.Integration.IntegrationResponses[0].ResponseParameters;
    expect(headers['method.response.header.Access-Control-Allow-Origin']).toBe("'https://app.example.com'");
    expect(headers['method.response.header.Access-Control-Allow-Methods']).toBe("'POST,GET,DELETE'");
    expect(headers['method.response.header.Access-Control-Allow-Headers']).toMatch(
      /content-type,accept,authorization,mcp-protocol-version,mcp-method,mcp-name,last-event-id,mcp-session-id,mcp-param-region/,
    );
  });

  it('metadata paths add GET methods (and their preflight) on the same integration', () => {
    const paths = ['/.well-known/oauth-protected-resource/prod/mcp', '/.well-known/oauth-protected-resource'];
    const { template } = build({ metadataPaths: paths, allowedOrigins: ['https://app.example.com'] });
    expect(routes(template)).toEqual([
      'DELETE /mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-protected-resource/prod/mcp',
      'GET /mcp',
      'OPTIONS /.well-known/oauth-protected-resource',
      'OPTIONS /.well-known/oauth-protected-resource/prod/mcp',
      'OPTIONS /mcp',
      'POST /mcp',
    ]);
  });

  it('the URL is the stage URL plus the path, built from the API id (no dependency on the stage resource)', () => {
    const { api, stack } = build({ stageName: 'live', path: '/v1/mcp' });
    const url = JSON.stringify(stack.resolve(api.url));
    expect(url).toContain('.execute-api.');
    expect(url).toContain('"/live/v1/mcp"');
    expect(url).not.toContain('Stage');
    expect(JSON.stringify(stack.resolve(api.stageUrl))).toContain('"/live"');
  });

  it('throttling limits and the integration timeout can be set', () => {
    const { template } = build({
      throttleRateLimit: 5,
      throttleBurstLimit: 10,
      integrationTimeout: Duration.minutes(5),
    });
    const [, stage] = only(template, 'AWS::ApiGateway::Stage');
    expect(stage.Properties.MethodSettings[0]).toMatchObject({
      ThrottlingRateLimit: 5,
      ThrottlingBurstLimit: 10,
    });
    for (const method of methods(template))
      expect(method.Properties.Integration.TimeoutInMillis).toBe(300_000);
  });

  it.each<[string, Partial<McpRestApiProps>, RegExp]>([
    ['the HTTP API $default stage', { stageName: '$default' }, /stage name "\$default" must be/],
    [
      'an origin pattern API Gateway cannot express',
      { allowedOrigins: ['http://localhost:*'] },
      /not an exact origin/,
    ],
    ['a zero rate limit', { throttleRateLimit: 0 }, /throttleRateLimit must be/],
    ['a fractional burst limit', { throttleBurstLimit: 1.5 }, /throttleBurstLimit must be/],
    ['a stream longer than 15 minutes', { integrationTimeout: Duration.minutes(16) }, /at most 900 seconds/],
  ])('refuses %s and names the setting', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });

  it('never samples the paths it is told on a traced stage, matched by stage ARN and segment name', () => {
    const stack = newStack();
    const handler = new lambda.Function(stack, 'Handler', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.streamingHandler',
      code: lambda.Code.fromInline('export const streamingHandler = async () => undefined;'),
    });
    const api = new McpRestApi(stack, 'Api', { handler, tracing: true });
    expect(api.neverTrace('Secret', '*/secret/*')).toBeDefined();
    const template = Template.fromStack(stack);
    const [stageId] = only(template, 'AWS::ApiGateway::Stage');
    const [, rule] = only(template, 'AWS::XRay::SamplingRule');
    const sampling = rule.Properties.SamplingRule;
    expect(sampling).toMatchObject({
      Priority: 1,
      FixedRate: 0,
      ReservoirSize: 0,
      ServiceName: 'Test-mcp/prod',
      ServiceType: 'AWS::ApiGateway::Stage',
      Host: '*',
      HTTPMethod: '*',
      URLPath: '*/secret/*',
      Version: 1,
    });
    expect(sampling.RuleName.length).toBeLessThanOrEqual(32);
    expect(JSON.stringify(sampling.ResourceARN)).toContain(stageId);
  });

  it('adds no sampling rule to a stage that is not traced', () => {
    const { api } = build();
    expect(api.neverTrace('Secret', '*/secret/*')).toBeUndefined();
    expect(api.node.tryFindChild('Secret')).toBeUndefined();
  });
});
