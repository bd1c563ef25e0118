import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { NODE_TARGET } from '../../infra/bundling.ts';
import { LAMBDA_RUNTIME } from '../../infra/constructs/bundled-function.ts';
import type { McpStackProps } from '../../infra/stack.ts';
import { synthStack } from './synth.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

const { template } = synthStack();

function only(t: Template, type: string, props: Record<string, unknown> = {}): [string, Resource] {
  const found = Object.entries(t.findResources(type, props ? { Properties: Match.objectLike(props) } : {}));
  expect(found, `exactly one ${type} matching ${JSON.stringify(props)}`).toHaveLength(1);
  return found[0] as [string, Resource];
}

/** The function whose description starts with the given words, and the statements of its role's policies. */
function fn(t: Template, description: string) {
  const [id, resource] = only(t, 'AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp(`^${description}`),
  });
  const roleId: string = resource.Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(t.findResources('AWS::IAM::Policy')).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Record<string, any>[]);
  const role = t.toJSON().Resources[roleId];
  return { id, resource, roleId, role, statements };
}

const mcp = fn(template, 'Stateless MCP server');
const companion = fn(template, 'Companion of the MCP function');
const [bucketId, bucket] = only(template, 'AWS::S3::Bucket');
const [, stage] = only(template, 'AWS::ApiGatewayV2::Stage');
const bucketArn = { 'Fn::GetAtt': [bucketId, 'Arn'] };
const underPrefix = { 'Fn::Join': ['', [bucketArn, '/outputs/*']] };
const logGroupArn = (f: typeof mcp) => ({
  'Fn::GetAtt': [f.resource.Properties.LoggingConfig.LogGroup.Ref, 'Arn'],
});
const asList = (v: unknown) => (Array.isArray(v) ? v : [v]);

describe('the API in front of the MCP function', () => {
  it('routes exactly POST, GET and DELETE /mcp, all to the MCP function (it answers GET and DELETE with 405)', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey,
    );
    expect(routes.sort()).toEqual(['DELETE /mcp', 'GET /mcp', 'POST /mcp']);
    const [, integration] = only(template, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties).toMatchObject({
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [mcp.id, 'Arn'] },
      TimeoutInMillis: 30_000,
    });
  });

  it('serves the $default stage with automatic deployment and throttling', () => {
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });

  it('writes one JSON access-log line per request, with the request id, status and Lambda request id', () => {
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      lambdaRequestId: '$context.integration.requestId',
    });
    expect(stage.Properties.AccessLogSettings.DestinationArn['Fn::GetAtt'][1]).toBe('Arn');
  });

  it('answers no CORS preflight when no browser origin is allowed', () => {
    const [, api] = only(template, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
    expect(api.Properties.ProtocolType).toBe('HTTP');
  });
});

describe('the two functions', () => {
  it('the runtime constant and the esbuild target name the same Node.js major', () => {
    expect(LAMBDA_RUNTIME.name).toBe(`nodejs${NODE_TARGET.replace('node', '')}.x`);
    expect(Number(NODE_TARGET.replace('node', ''))).toBeGreaterThanOrEqual(22);
  });

  it.each([
    ['MCP', mcp, 1024, 28],
    ['companion', companion, 512, 10],
  ])(
    'the %s function runs the ESM bundle on Node.js 22, arm64, with its memory and timeout',
    (_, f, memory, timeout) => {
      expect(f.resource.Properties).toMatchObject({
        Runtime: LAMBDA_RUNTIME.name,
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: memory,
        Timeout: timeout,
      });
    },
  );

  it.each([
    ['MCP', mcp],
    ['companion', companion],
  ])('the %s function writes structured JSON logs to its own log group, kept one month', (_, f) => {
    const config = f.resource.Properties.LoggingConfig;
    expect(config).toMatchObject({ LogFormat: 'JSON', ApplicationLogLevel: 'INFO', SystemLogLevel: 'INFO' });
    const logGroup = template.toJSON().Resources[config.LogGroup.Ref];
    expect(logGroup).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
    expect(f.resource.Properties.Environment.Variables).toMatchObject({
      POWERTOOLS_LOG_LEVEL: 'INFO',
      NODE_OPTIONS: '--enable-source-maps',
    });
  });

  it('the MCP function receives the endpoint, offload and companion settings src/config.ts reads', () => {
    expect(mcp.resource.Properties.Environment.Variables).toEqual({
      NODE_OPTIONS: '--enable-source-maps',
      POWERTOOLS_SERVICE_NAME: 'mcp-lambda-template',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      MCP_SERVER_NAME: 'mcp-lambda-template',
      MCP_PATH: '/mcp',
      OFFLOAD_BUCKET: { Ref: bucketId },
      OFFLOAD_PREFIX: 'outputs/',
      OFFLOAD_TTL_DAYS: '7',
      RESOURCES_FUNCTION_NAME: { Ref: companion.id },
    });
  });

  it('the companion function receives the bucket and prefix, and no endpoint settings', () => {
    const env = companion.resource.Properties.Environment.Variables;
    expect(env).toMatchObject({ OFFLOAD_BUCKET: { Ref: bucketId }, OFFLOAD_PREFIX: 'outputs/' });
    expect(env.MCP_PATH).toBeUndefined();
    expect(env.RESOURCES_FUNCTION_NAME).toBeUndefined();
  });
});

describe('the output bucket', () => {
  it('encrypts objects, blocks every kind of public access and disables ACLs', () => {
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
  });

  it('denies every request made without TLS, or with TLS older than 1.2', () => {
    const [, policy] = only(template, 'AWS::S3::BucketPolicy');
    const denies = (policy.Properties.PolicyDocument.Statement as Record<string, any>[]).filter(
      (s) => s.Effect === 'Deny',
    );
    const everything = [bucketArn, { 'Fn::Join': ['', [bucketArn, '/*']] }];
    expect(denies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Resource: everything,
        }),
        expect.objectContaining({
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
          Resource: everything,
        }),
      ]),
    );
  });

  it('expires stored outputs under the prefix after the TTL and cleans up unfinished uploads', () => {
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      {
        Id: 'expire-stored-outputs',
        Status: 'Enabled',
        Prefix: 'outputs/',
        ExpirationInDays: 7,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      },
    ]);
  });

  it('is emptied and deleted with the stack by default (outputs are disposable copies)', () => {
    expect(bucket.DeletionPolicy).toBe('Delete');
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 1);
  });
});

describe('IAM', () => {
  it('the MCP function may write its logs, put objects under the prefix and invoke the companion: nothing else', () => {
    expect(mcp.statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: logGroupArn(mcp),
      },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: underPrefix },
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': [companion.id, 'Arn'] } },
    ]);
  });

  it('the companion function may write its logs and get objects under the prefix: nothing else', () => {
    expect(companion.statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: logGroupArn(companion),
      },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: underPrefix },
    ]);
  });

  it.each([
    ['MCP', mcp],
    ['companion', companion],
  ])('the %s role has no wildcard action, no managed policy and is assumable by Lambda only', (_, f) => {
    for (const statement of f.statements) {
      for (const action of asList(statement.Action)) expect(action).not.toContain('*');
      expect(statement.Effect).toBe('Allow');
      expect(statement.NotAction).toBeUndefined();
      expect(statement.NotResource).toBeUndefined();
    }
    expect(f.role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(f.role.Properties.Policies).toBeUndefined();
    expect(f.role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
    ]);
  });

  it('only API Gateway may invoke the MCP function, and only for this API', () => {
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission'));
    expect(permissions.length).toBeGreaterThan(0);
    for (const p of permissions) {
      expect(p.Properties).toMatchObject({
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [mcp.id, 'Arn'] },
      });
      expect(JSON.stringify(p.Properties.SourceArn)).toContain(only(template, 'AWS::ApiGatewayV2::Api')[0]);
    }
  });
});

describe('monitoring', () => {
  const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
  const alarmOn = (metric: string, functionId?: string) =>
    alarms.filter(
      (a) =>
        a.MetricName === metric &&
        (functionId === undefined ||
          (a.Dimensions as { Value: { Ref: string } }[]).some((d) => d.Value.Ref === functionId)),
    );

  it.each([
    ['MCP', mcp, 28_000],
    ['companion', companion, 10_000],
  ])(
    'the %s function has alarms on errors, throttles and p99 duration near its timeout',
    (_, f, timeoutMs) => {
      expect(alarmOn('Errors', f.id)).toEqual([
        expect.objectContaining({
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        }),
      ]);
      expect(alarmOn('Throttles', f.id)).toEqual([
        expect.objectContaining({ Statistic: 'Sum', Threshold: 1 }),
      ]);
      expect(alarmOn('Duration', f.id)).toEqual([
        expect.objectContaining({
          ExtendedStatistic: 'p99',
          Threshold: timeoutMs * 0.8,
          ComparisonOperator: 'GreaterThanThreshold',
          EvaluationPeriods: 3,
          DatapointsToAlarm: 2,
        }),
      ]);
    },
  );

  it('the API has an alarm on 5xx answers', () => {
    expect(alarmOn('5xx')).toEqual([
      expect.objectContaining({ Namespace: 'AWS/ApiGateway', Statistic: 'Sum', Threshold: 1 }),
    ]);
  });

  it('every alarm explains what to do and has no action unless a topic is configured', () => {
    expect(alarms).toHaveLength(7);
    for (const a of alarms) {
      expect(a.AlarmDescription).toMatch(/\w+/);
      expect(a.AlarmActions).toBeUndefined();
    }
  });

  it('one dashboard shows the API, both functions, the alarms and the per-method log table', () => {
    const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const title of [
      'API: requests and errors',
      'Mcp function: duration (ms)',
      'Resources function: duration (ms)',
      'Alarms',
      'MCP requests by method',
    ])
      expect(body).toContain(title);
  });
});

describe('stack outputs', () => {
  it('give the endpoint URL, the bucket, the function, its log group and the dashboard', () => {
    const outputs = template.toJSON().Outputs;
    expect(Object.keys(outputs).sort()).toEqual([
      'DashboardUrl',
      'McpEndpointUrl',
      'McpFunctionName',
      'McpLogGroupName',
      'OutputBucketName',
    ]);
    const api = only(template, 'AWS::ApiGatewayV2::Api')[0];
    expect(outputs.McpEndpointUrl.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { Ref: api },
          '.execute-api.',
          { Ref: 'AWS::Region' },
          '.',
          { Ref: 'AWS::URLSuffix' },
          '/mcp',
        ],
      ],
    });
    expect(outputs.OutputBucketName.Value).toEqual({ Ref: bucketId });
  });
});

describe('configuration through props', () => {
  it('a named stage prefixes the endpoint path with the stage name', () => {
    const t = synthStack({ endpoint: { stageName: 'prod' } }).template;
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'prod' });
    const url = JSON.stringify(t.toJSON().Outputs.McpEndpointUrl.Value);
    expect(url).toContain('"/prod/mcp"');
  });

  it('allowed origins reach the function and become the only origins of the CORS preflight', () => {
    const origins = ['https://app.example.com', 'http://localhost:6274'];
    const t = synthStack({ endpoint: { allowedOrigins: origins } }).template;
    const cors = only(t, 'AWS::ApiGatewayV2::Api')[1].Properties.CorsConfiguration;
    expect(cors).toMatchObject({ AllowOrigins: origins, AllowMethods: ['POST'] });
    expect(cors.AllowCredentials).toBeUndefined();
    expect(cors.AllowHeaders).toEqual(
      expect.arrayContaining([
        'content-type',
        'authorization',
        'mcp-protocol-version',
        'mcp-method',
        'mcp-name',
      ]),
    );
    t.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ MCP_ALLOWED_ORIGINS: origins.join(',') }) },
    });
  });

  it('sizes, limits, TTL and log settings reach the template', () => {
    const t = synthStack({
      endpoint: {
        offloadThresholdBytes: 65536,
        offloadTtlDays: 2,
        mcpMemorySize: 2048,
        resourcesMemorySize: 256,
        mcpTimeout: Duration.seconds(20),
        throttleRateLimit: 5,
        throttleBurstLimit: 10,
        logLevel: 'WARN',
        logRetention: RetentionDays.ONE_WEEK,
      },
    }).template;
    const f = fn(t, 'Stateless MCP server');
    expect(f.resource.Properties).toMatchObject({
      MemorySize: 2048,
      Timeout: 20,
      LoggingConfig: { ApplicationLogLevel: 'WARN' },
    });
    expect(f.resource.Properties.Environment.Variables).toMatchObject({
      OFFLOAD_THRESHOLD_BYTES: '65536',
      OFFLOAD_TTL_DAYS: '2',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    });
    expect(fn(t, 'Companion').resource.Properties.MemorySize).toBe(256);
    t.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 2 })] },
    });
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    });
    for (const lg of Object.values(t.findResources('AWS::Logs::LogGroup')))
      expect(lg.Properties.RetentionInDays).toBe(7);
  });

  it('RETAIN keeps the bucket and the log groups and adds no auto-delete provider', () => {
    const t = synthStack({ endpoint: { removalPolicy: RemovalPolicy.RETAIN } }).template;
    expect(only(t, 'AWS::S3::Bucket')[1].DeletionPolicy).toBe('Retain');
    t.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    for (const lg of Object.values(t.findResources('AWS::Logs::LogGroup')))
      expect(lg.DeletionPolicy).toBe('Retain');
  });

  it('an alarm topic receives alarm and recovery notifications of every alarm', () => {
    const topic = 'arn:aws:sns:eu-west-1:123456789012:mcp-alarms';
    const t = synthStack({ alarmTopicArn: topic }).template;
    for (const a of Object.values(t.findResources('AWS::CloudWatch::Alarm'))) {
      expect(a.Properties.AlarmActions).toEqual([topic]);
      expect(a.Properties.OKActions).toEqual([topic]);
    }
  });

  it.each<[string, McpStackProps['endpoint'], RegExp]>([
    [
      'a timeout above the HTTP API’s integration limit',
      { mcpTimeout: Duration.seconds(31) },
      /mcpTimeout must be at most 30 seconds/,
    ],
    [
      'a companion slower than the MCP function',
      { mcpTimeout: Duration.seconds(5), resourcesTimeout: Duration.seconds(6) },
      /resourcesTimeout must be at most mcpTimeout/,
    ],
    ['memory below 128 MB', { mcpMemorySize: 64 }, /mcpMemorySize must be an integer from 128 to 10240/],
    ['a TTL of 0 days', { offloadTtlDays: 0 }, /OFFLOAD_TTL_DAYS must be an integer from 1 to 365/],
    ['a threshold above 5 MiB', { offloadThresholdBytes: 6 * 1024 * 1024 }, /OFFLOAD_THRESHOLD_BYTES/],
    [
      'a prefix without a trailing slash',
      { offloadPrefix: 'outputs' },
      /OFFLOAD_PREFIX has an invalid value/,
    ],
    ['a path without a leading slash', { path: 'mcp' }, /MCP_PATH has an invalid value/],
    ['a stage name with a space', { stageName: 'my stage' }, /stage name "my stage" must be/],
    [
      'an origin pattern API Gateway cannot express',
      { allowedOrigins: ['http://localhost:*'] },
      /not an exact origin/,
    ],
    ['a zero rate limit', { throttleRateLimit: 0 }, /throttleRateLimit must be/],
  ])('the synth refuses %s and names the setting', (_, endpoint, message) => {
    expect(() => synthStack({ endpoint })).toThrow(message);
  });
});
