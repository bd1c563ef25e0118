import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it, vi } from 'vitest';
import { LAMBDA_RUNTIME, McpEndpoint, type McpEndpointProps } from '@mcp-lambda/cdk';
import { loadConfig } from '@mcp-lambda/server/lambda';
import { Defaults } from '@mcp-lambda/server/limits';
import {
  BRIDGE_ROUTE_KEYS,
  newStack,
  expectLeastPrivilege,
  lambdaFunction,
  logGroupArnOf,
  only,
} from '@mcp-lambda/cdk/testing';

/** An McpEndpoint in a fresh stack (open unless `auth` says otherwise: these tests are not about auth). */
/** The tools a fixture function serves, as a CDK app names them to the endpoint. */
const FIXTURE_TOOLS = ['lookup', 'convert', 'summarise', 'export_rows', 'draw', 'notify'];

/**
 * Runs a synth whose warning a test intends, keeping CDK's report of it (printed with console.error) out of the test
 * run's output, where it would read like a real problem; returns what it printed for the test to check.
 */
function reported<T>(run: () => T): { value: T; printed: string } {
  const printing = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const value = run();
    return { value, printed: printing.mock.calls.flat().map(String).join('\n') };
  } finally {
    printing.mockRestore();
  }
}

function build(props: McpEndpointProps = {}) {
  const stack = newStack();
  const endpoint = new McpEndpoint(stack, 'Mcp', {
    auth: { mode: 'none' },
    toolNames: FIXTURE_TOOLS,
    ...props,
  });
  const template = Template.fromStack(stack);
  const mcp = lambdaFunction(template, 'Stateless MCP server');
  const companion = lambdaFunction(template, 'Companion of the MCP function');
  const worker = lambdaFunction(template, 'Task worker');
  const [bucketId, bucket] = only(template, 'AWS::S3::Bucket');
  // The task table (the streaming API has the call state's table too).
  const tableId = Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) =>
    id.startsWith('McpTasks'),
  )!;
  return { stack, endpoint, template, mcp, companion, worker, bucketId, bucket, tableId };
}

/** The objects of the bucket under a prefix, as a grant names them. */
const underPrefix = (bucketId: string, prefix = 'outputs/') => ({
  'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${prefix}*`]],
});

describe('McpEndpoint', () => {
  it('mcpFunction is the MCP function itself: endpoint.mcpFunction.functionName names it', () => {
    const { stack, endpoint, mcp, companion } = build();
    expect(stack.resolve(endpoint.mcpFunction.functionName)).toEqual({ Ref: mcp.id });
    expect(stack.resolve(endpoint.resourcesFunction.functionName)).toEqual({ Ref: companion.id });
  });

  it('the MCP function receives the endpoint, offload, companion and task settings packages/server/src/config.ts reads', () => {
    const { mcp, bucketId, companion, worker, tableId, template } = build();
    expect(mcp.resource.Properties.Environment.Variables).toEqual({
      POWERTOOLS_SERVICE_NAME: 'mcp-lambda-template',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      MCP_SERVER_NAME: 'mcp-lambda-template',
      MCP_PATH: '/mcp',
      OFFLOAD_BUCKET: { Ref: bucketId },
      OFFLOAD_PREFIX: 'outputs/',
      OFFLOAD_TTL_DAYS: '7',
      RESOURCES_FUNCTION_NAME: { Ref: companion.id },
      TASKS_TABLE: { Ref: tableId },
      TASKS_WORKER_FUNCTION_NAME: { Ref: worker.id },
      MCP_TOOL_METRICS: 'on',
      MCP_METRICS_NAMESPACE: 'MCP/Test',
      MCP_SESSION_SECRET_ARN: { Ref: only(template, 'AWS::SecretsManager::Secret')[0] },
    });
  });

  describe('per-tool metrics', () => {
    const toolAlarmDescriptions = (template: Template) =>
      Object.values(template.findResources('AWS::CloudWatch::Alarm'))
        .map((a) => String(a.Properties.AlarmDescription))
        .filter((d) => d.includes('of the calls of tool'));

    it('are on by default, in MCP/<stack name>, with a dashboard row and an error-rate alarm per tool', () => {
      const { template } = build();
      const tools = FIXTURE_TOOLS;
      const described = toolAlarmDescriptions(template);
      expect(described).toHaveLength(tools.length + 1);
      for (const tool of [...tools, 'read_output'])
        expect(described.some((d) => d.includes(`tool ${tool} failed`))).toBe(true);
      const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
      const body = JSON.stringify(dashboard.Properties.DashboardBody);
      expect(body).toContain('Tool export_rows: bytes stored');
      expect(body).toContain('MCP/Test');
    });

    it('the worker and the companion get no metrics settings (only the MCP function writes them)', () => {
      const { worker, companion } = build();
      for (const fn of [worker, companion]) {
        expect(fn.resource.Properties.Environment.Variables.MCP_TOOL_METRICS).toBeUndefined();
        expect(fn.resource.Properties.Environment.Variables.MCP_METRICS_NAMESPACE).toBeUndefined();
      }
    });

    it('toolMetrics: false leaves the function without them and the dashboard without tool rows or alarms', () => {
      const { template, mcp } = build({ toolMetrics: false });
      expect(mcp.resource.Properties.Environment.Variables.MCP_TOOL_METRICS).toBeUndefined();
      expect(toolAlarmDescriptions(template)).toEqual([]);
      const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
      expect(JSON.stringify(dashboard.Properties.DashboardBody)).not.toContain('Tool lookup');
    });

    it('metricsNamespace reaches the function and the alarms; one CloudWatch refuses fails the synth', () => {
      const { mcp, template } = build({ metricsNamespace: 'Acme/Tools' });
      expect(mcp.resource.Properties.Environment.Variables.MCP_METRICS_NAMESPACE).toBe('Acme/Tools');
      expect(JSON.stringify(template.findResources('AWS::CloudWatch::Alarm'))).toContain('Acme/Tools');
      expect(() => build({ metricsNamespace: 'AWS/Lambda' })).toThrow(
        /McpEndpoint: Configuration: MCP_METRICS_NAMESPACE has an invalid value/,
      );
    });

    it('the tool rows come from toolNames, with read_output when it is served', () => {
      const own = build({
        mcpEntry: 'functions/mcp/handler.ts',
        mcpBeforeBundling: [],
        toolNames: undefined,
      });
      expect(toolAlarmDescriptions(own.template)).toEqual([]);
      const named = build({
        mcpEntry: 'functions/mcp/handler.ts',
        mcpBeforeBundling: [],
        toolNames: ['lookup'],
      });
      expect(toolAlarmDescriptions(named.template)).toEqual([
        expect.stringContaining('tool lookup failed'),
        expect.stringContaining('tool read_output failed'),
      ]);
    });
  });

  it('settings no other resource depends on are left to the function: its configuration applies the 32 KiB threshold', () => {
    const { mcp } = build();
    const variables = mcp.resource.Properties.Environment.Variables as Record<string, unknown>;
    const strings = Object.fromEntries(
      Object.entries(variables).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    expect(strings.OFFLOAD_THRESHOLD_BYTES).toBeUndefined();
    expect(loadConfig(strings).offload.thresholdBytes).toBe(32_768);
    expect(Defaults.offloadThresholdBytes).toBe(32_768);
  });

  it('the companion function receives the bucket and prefix, and no endpoint settings', () => {
    const { companion, bucketId } = build();
    const env = companion.resource.Properties.Environment.Variables;
    expect(env).toMatchObject({
      OFFLOAD_BUCKET: { Ref: bucketId },
      OFFLOAD_PREFIX: 'outputs/',
      POWERTOOLS_SERVICE_NAME: 'mcp-lambda-template-resources',
    });
    expect(env.MCP_PATH).toBeUndefined();
    expect(env.RESOURCES_FUNCTION_NAME).toBeUndefined();
  });

  it.each([
    ['MCP', 'mcp', 1024, 28],
    ['companion', 'companion', 512, 10],
  ] as const)(
    'the %s function runs the ESM bundle on Node.js 22, arm64, with its memory and timeout',
    (_, which, memory, timeout) => {
      expect(build()[which].resource.Properties).toMatchObject({
        Runtime: LAMBDA_RUNTIME.name,
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: memory,
        Timeout: timeout,
      });
    },
  );

  it.each([
    ['MCP', 'mcp'],
    ['companion', 'companion'],
  ] as const)('the %s function writes JSON logs at INFO to its own log group, kept one month', (_, which) => {
    const built = build();
    const f = built[which];
    expect(f.resource.Properties.LoggingConfig).toMatchObject({
      LogFormat: 'JSON',
      ApplicationLogLevel: 'INFO',
      SystemLogLevel: 'INFO',
    });
    expect(f.resource.Properties.Environment.Variables).toMatchObject({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    expect(f.resource.Properties.Environment.Variables).not.toHaveProperty('NODE_OPTIONS');
    const logGroup = built.template.toJSON().Resources[f.resource.Properties.LoggingConfig.LogGroup.Ref];
    expect(logGroup).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
  });

  it('the MCP function may write its logs, put (and delete) objects under the prefix, read and write task records, and invoke the companion and the worker: nothing else', () => {
    const { mcp, companion, worker, bucketId, tableId, template } = build();
    const [secretId] = only(template, 'AWS::SecretsManager::Secret');
    expect(mcp.statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: logGroupArnOf(mcp.resource),
      },
      { Effect: 'Allow', Action: ['s3:DeleteObject', 's3:PutObject'], Resource: underPrefix(bucketId) },
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      },
      {
        Effect: 'Allow',
        Action: 'lambda:InvokeFunction',
        Resource: [{ 'Fn::GetAtt': [companion.id, 'Arn'] }, { 'Fn::GetAtt': [worker.id, 'Arn'] }],
      },
      { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secretId } },
    ]);
  });

  it('seals sessions with a generated secret only the MCP function reads; no call state table on the HTTP API', () => {
    const { template, companion, worker } = build();
    const [, secret] = only(template, 'AWS::SecretsManager::Secret');
    expect(secret.Properties.GenerateSecretString).toMatchObject({
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    for (const fn of [companion, worker])
      expect(JSON.stringify(fn.statements)).not.toContain('secretsmanager');
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    expect(JSON.stringify(template.toJSON())).not.toContain('MCP_CALL_STATE_TABLE');
  });

  it('leaves the session secret out when mcpEnvironment brings its own key', () => {
    const { value } = reported(() => build({ mcpEnvironment: { MCP_SESSION_SECRET: 'k'.repeat(32) } }));
    value.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
  });

  it.each(['http', 'rest-streaming'] as const)(
    'with the %s API the MCP function reads the generated secret whose keys seal sessions and requestState, and no key is in the template',
    (api) => {
      const { template, mcp } = build({ api });
      const [secretId, secret] = only(template, 'AWS::SecretsManager::Secret');
      const env = mcp.resource.Properties.Environment.Variables;
      expect(env.MCP_SESSION_SECRET_ARN).toEqual({ Ref: secretId });
      expect(mcp.statements).toContainEqual({
        Effect: 'Allow',
        Action: 'secretsmanager:GetSecretValue',
        Resource: { Ref: secretId },
      });
      // What the function's configuration makes of it: session keys from the secret, no requestState override,
      // so requestState is sealed with keys derived from the secret's (packages/server/src/server.ts).
      const resolved = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          typeof v === 'string' ? v : 'arn:aws:secretsmanager:us-east-1:123456789012:secret:s-AbCdEf',
        ]),
      ) as Record<string, string>;
      const config = loadConfig(resolved);
      expect(config.sessions?.secretArn).toBeDefined();
      expect(config.requestStateSecret).toBeUndefined();
      // Generated by Secrets Manager: no value in the template, and no function carries a key as a literal.
      expect(secret.Properties).not.toHaveProperty('SecretString');
      expect(secret.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64 });
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function')))
        for (const [name, value] of Object.entries(fn.Properties.Environment?.Variables ?? {}))
          if (/SECRET/.test(name)) expect([name, typeof value]).toEqual(['MCP_SESSION_SECRET_ARN', 'object']);
    },
  );

  it.each(['MCP_SESSION_SECRET', 'MCP_REQUEST_STATE_SECRET'])(
    'warns that %s given as plain text in mcpEnvironment is written into the template',
    (name) => {
      const { value: warnings, printed } = reported(() =>
        Annotations.fromStack(build({ mcpEnvironment: { [name]: 'k'.repeat(32) } }).stack).findWarning(
          '*',
          Match.stringLikeRegexp(`sets ${name} as plain text`),
        ),
      );
      expect(warnings).toHaveLength(1);
      // What the synth prints for it: the report a user of `cdk synth` reads.
      expect(printed).toContain(`WARNING mcpEnvironment sets ${name} as plain text`);
    },
  );

  it('the companion function may write its logs and get objects under the prefix: nothing else', () => {
    const { companion, bucketId } = build();
    expect(companion.statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: logGroupArnOf(companion.resource),
      },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: underPrefix(bucketId) },
    ]);
  });

  it.each([
    ['MCP', 'mcp'],
    ['companion', 'companion'],
  ] as const)(
    'the %s role has no wildcard action, no managed policy and is assumable by Lambda only',
    (_, which) => {
      const f = build()[which];
      expectLeastPrivilege(f.role, f.statements);
    },
  );

  it('the API routes /mcp to the MCP function, and only API Gateway may invoke it', () => {
    const { template, mcp } = build();
    const [, integration] = only(template, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [mcp.id, 'Arn'] });
    for (const p of Object.values(template.findResources('AWS::Lambda::Permission')))
      expect(p.Properties).toMatchObject({
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [mcp.id, 'Arn'] },
      });
  });

  it('the duration alarms follow each function’s timeout, and the dashboard reads the MCP function’s logs', () => {
    const { template, mcp, companion, worker, endpoint } = build();
    const durations = Object.values(template.findResources('AWS::CloudWatch::Alarm'))
      .map((a) => a.Properties)
      .filter((a) => a.MetricName === 'Duration');
    const thresholdOf = (id: string) =>
      durations.find((a) => a.Dimensions.some((d: { Value: { Ref: string } }) => d.Value.Ref === id))
        ?.Threshold;
    expect([thresholdOf(mcp.id), thresholdOf(companion.id), thresholdOf(worker.id)]).toEqual([
      28_000 * 0.8,
      10_000 * 0.8,
      900_000 * 0.8,
    ]);
    expect(endpoint.monitoring.alarms).toHaveLength(10 + 7); // and an error-rate alarm per tool
    const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
    expect(JSON.stringify(dashboard.Properties.DashboardBody)).toContain(
      mcp.resource.Properties.LoggingConfig.LogGroup.Ref,
    );
  });

  it('allowed origins reach the function and the CORS preflight', () => {
    const origins = ['https://app.example.com', 'http://localhost:6274'];
    const { mcp, template } = build({ allowedOrigins: origins });
    expect(mcp.resource.Properties.Environment.Variables).toMatchObject({
      MCP_ALLOWED_ORIGINS: origins.join(','),
    });
    const [, api] = only(template, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.CorsConfiguration).toMatchObject({ AllowOrigins: origins });
  });

  it('path and offloadPrefix are resolved once: the route, the bucket rule and grants, and both functions agree', () => {
    const { template, mcp, companion, bucket, bucketId } = build({
      path: '/v1/mcp',
      offloadPrefix: 'large/',
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /v1/mcp' });
    expect(mcp.resource.Properties.Environment.Variables).toMatchObject({
      MCP_PATH: '/v1/mcp',
      OFFLOAD_PREFIX: 'large/',
    });
    expect(companion.resource.Properties.Environment.Variables).toMatchObject({ OFFLOAD_PREFIX: 'large/' });
    expect(bucket.Properties.LifecycleConfiguration.Rules[0].Prefix).toBe('large/');
    expect(mcp.statements).toContainEqual({
      Effect: 'Allow',
      Action: ['s3:DeleteObject', 's3:PutObject'],
      Resource: underPrefix(bucketId, 'large/'),
    });
  });

  it('sizes, limits, TTL and log settings reach the template', () => {
    const { template, mcp, companion } = build({
      offloadThresholdBytes: 65536,
      offloadTtlDays: 2,
      mcpMemorySize: 2048,
      resourcesMemorySize: 256,
      mcpTimeout: Duration.seconds(20),
      throttleRateLimit: 5,
      throttleBurstLimit: 10,
      logLevel: 'WARN',
      logRetention: RetentionDays.ONE_WEEK,
    });
    expect(mcp.resource.Properties).toMatchObject({
      MemorySize: 2048,
      Timeout: 20,
      LoggingConfig: { ApplicationLogLevel: 'WARN' },
    });
    expect(mcp.resource.Properties.Environment.Variables).toMatchObject({
      OFFLOAD_THRESHOLD_BYTES: '65536',
      OFFLOAD_TTL_DAYS: '2',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    });
    expect(companion.resource.Properties.MemorySize).toBe(256);
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 2 })] },
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    });
    for (const lg of Object.values(template.findResources('AWS::Logs::LogGroup')))
      expect(lg.Properties.RetentionInDays).toBe(7);
  });

  it('an MCP function timeout of 30 s, the HTTP API limit, is accepted', () => {
    expect(build({ mcpTimeout: Duration.seconds(30) }).mcp.resource.Properties.Timeout).toBe(30);
  });

  it('by default the bucket and the log groups are deleted with the stack', () => {
    const { template, bucket } = build();
    expect(bucket.DeletionPolicy).toBe('Delete');
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 1);
    for (const lg of Object.values(template.findResources('AWS::Logs::LogGroup')))
      expect(lg.DeletionPolicy).toBe('Delete');
  });

  it('RETAIN keeps the bucket and the log groups and adds no auto-delete provider', () => {
    const { template, bucket } = build({ removalPolicy: RemovalPolicy.RETAIN });
    expect(bucket.DeletionPolicy).toBe('Retain');
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    for (const lg of Object.values(template.findResources('AWS::Logs::LogGroup')))
      expect(lg.DeletionPolicy).toBe('Retain');
  });

  it.each<[string, McpEndpointProps, RegExp]>([
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
  ])('refuses %s and names the setting', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});

describe('McpEndpoint with api rest-streaming', () => {
  const streaming = (props: McpEndpointProps = {}) => build({ api: 'rest-streaming', ...props });

  it("adds the call state's table (questions, cancellations, stream logs), which only the MCP function may read and write", () => {
    const { template, mcp, companion, worker, tableId, endpoint } = streaming();
    const askId = Object.keys(template.findResources('AWS::DynamoDB::Table')).find((id) => id !== tableId)!;
    // The logical id of the table an earlier release created as `AskRendezvous`: an upgrade keeps it, items and all.
    expect(askId).toBe('McpAskingTableF99BA9F5');
    expect(Object.keys(template.findResources('AWS::Logs::MetricFilter'))).toEqual([
      'McpAskingFailedWrites3A3EB7B1',
    ]);
    expect(endpoint.callState).toBeDefined();
    expect(endpoint.asking).toBe(endpoint.callState);
    expect(mcp.resource.Properties.Environment.Variables.MCP_CALL_STATE_TABLE).toEqual({ Ref: askId });
    expect(mcp.resource.Properties.Environment.Variables.MCP_ASK_TABLE).toBeUndefined();
    expect(mcp.statements).toContainEqual({
      Effect: 'Allow',
      Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      Resource: { 'Fn::GetAtt': [askId, 'Arn'] },
    });
    for (const fn of [companion, worker]) expect(JSON.stringify(fn.statements)).not.toContain(askId);
    expectLeastPrivilege(mcp.role, mcp.statements);
  });

  it('puts a streaming REST API in front of the function instead of the HTTP API', () => {
    const { template, endpoint, stack } = streaming();
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    expect(endpoint.api).toBe('rest-streaming');
    expect(endpoint.httpApi).toBeUndefined();
    expect(endpoint.restApi).toBeDefined();
    expect(JSON.stringify(stack.resolve(endpoint.url))).toContain('"/prod/mcp"');
  });

  it('the function runs its streaming handler for up to 15 minutes by default', () => {
    const { mcp } = streaming();
    expect(mcp.resource.Properties).toMatchObject({
      Handler: 'index.streamingHandler',
      Timeout: 900,
      Description: 'Stateless MCP server (Streamable HTTP, streamed responses)',
    });
  });

  it('every method invokes the MCP function with a response stream, and only API Gateway may invoke it', () => {
    const { template, mcp } = streaming();
    for (const method of Object.values(template.findResources('AWS::ApiGateway::Method'))) {
      expect(method.Properties.Integration.ResponseTransferMode).toBe('STREAM');
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(mcp.id);
    }
    for (const p of Object.values(template.findResources('AWS::Lambda::Permission')))
      expect(p.Properties).toMatchObject({
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [mcp.id, 'Arn'] },
      });
  });

  it('the monitoring watches the REST API stage and the 15-minute duration limit', () => {
    const { template, mcp, endpoint } = streaming();
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const api5xx = alarms.find((a) => a.MetricName === '5XXError');
    expect(api5xx).toMatchObject({ Namespace: 'AWS/ApiGateway' });
    expect(api5xx!.Dimensions.map((d: { Name: string }) => d.Name).sort()).toEqual(['ApiName', 'Stage']);
    const mcpDuration = alarms.find(
      (a) =>
        a.MetricName === 'Duration' &&
        a.Dimensions.some((d: { Value: { Ref: string } }) => d.Value.Ref === mcp.id),
    );
    expect(mcpDuration?.Threshold).toBe(900_000 * 0.8);
    expect(endpoint.monitoring.alarms).toHaveLength(10 + 7); // and an error-rate alarm per tool
  });

  it('tasks work the same way: the MCP function gets the task table and may start the worker', () => {
    const { mcp, worker, tableId, endpoint, stack } = streaming();
    expect(mcp.resource.Properties.Environment.Variables).toMatchObject({
      TASKS_TABLE: { Ref: tableId },
      TASKS_WORKER_FUNCTION_NAME: { Ref: worker.id },
    });
    expect(JSON.stringify(mcp.statements)).toContain(JSON.stringify({ 'Fn::GetAtt': [worker.id, 'Arn'] }));
    expect(stack.resolve(endpoint.tasks.workerFunction.functionName)).toEqual({ Ref: worker.id });
  });

  it('accepts a timeout up to 15 minutes, and a stage and handler of its own', () => {
    const { mcp, template } = streaming({
      mcpTimeout: Duration.minutes(15),
      stageName: 'live',
      mcpHandler: 'myStreamingHandler',
    });
    expect(mcp.resource.Properties).toMatchObject({ Timeout: 900, Handler: 'index.myStreamingHandler' });
    template.hasResourceProperties('AWS::ApiGateway::Stage', { StageName: 'live' });
  });

  it.each<[string, McpEndpointProps, RegExp]>([
    [
      'a streaming function timeout above 15 minutes',
      { api: 'rest-streaming', mcpTimeout: Duration.seconds(901) },
      /mcpTimeout must be at most 900 seconds with api "rest-streaming"/,
    ],
    [
      'an HTTP API function timeout above 30 s',
      { api: 'http', mcpTimeout: Duration.seconds(31) },
      /mcpTimeout must be at most 30 seconds with api "http"/,
    ],
    ['an unknown API kind', { api: 'websocket' as 'http' }, /api must be one of http, rest-streaming/],
  ])('refuses %s', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});

describe('McpEndpoint behind a custom domain', () => {
  const zone = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'example.com' };
  const domain = { name: 'mcp.example.com', hostedZone: zone };
  const bridged = { mode: 'oauth' as const, cognito: {} };
  const envOf = (fn: { resource: { Properties: Record<string, any> } }): Record<string, unknown> =>
    fn.resource.Properties.Environment.Variables;
  /** With the bridge (two tables: tasks and the bridge's), read without `build`'s single-table checks. */
  const withBridge = (props: McpEndpointProps) => {
    const stack = newStack();
    const endpoint = new McpEndpoint(stack, 'Mcp', { auth: bridged, ...props });
    const template = Template.fromStack(stack);
    return { stack, endpoint, template, mcp: lambdaFunction(template, 'Stateless MCP server') };
  };

  it('serves the endpoint at https://<domain>/mcp: the HTTP API stage mapped at the root of the domain', () => {
    const { stack, endpoint, template } = build({ domain });
    expect(endpoint.url).toBe('https://mcp.example.com/mcp');
    const [, mapping] = only(template, 'AWS::ApiGatewayV2::ApiMapping');
    expect(mapping.Properties.ApiMappingKey).toBeUndefined();
    expect(stack.resolve(mapping.Properties.ApiId)).toEqual(stack.resolve(endpoint.httpApi!.api.apiId));
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 1);
    template.resourceCountIs('AWS::Route53::RecordSet', 1);
  });

  it('with the bridge: resource, audience, metadata, issuer, its key set and the Cognito callback all on the domain', () => {
    const { endpoint, template, mcp } = withBridge({ domain });
    expect(envOf(mcp)).toMatchObject({
      MCP_AUTH_RESOURCE: 'https://mcp.example.com/mcp',
      MCP_AUTH_ISSUER: 'https://mcp.example.com',
      MCP_AUTH_JWKS_URL: 'https://mcp.example.com/oauth/jwks',
    });
    expect(envOf(mcp).MCP_AUTH_METADATA_URL).toBeUndefined();
    expect(endpoint.auth).toMatchObject({
      issuer: 'https://mcp.example.com',
      resource: 'https://mcp.example.com/mcp',
      metadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    });
    const bridge = lambdaFunction(template, 'MCP authorization bridge');
    expect(envOf(bridge)).toMatchObject({
      BRIDGE_ISSUER: 'https://mcp.example.com',
      BRIDGE_RESOURCE: 'https://mcp.example.com/mcp',
    });
    only(template, 'AWS::Cognito::UserPoolClient', {
      CallbackURLs: ['https://mcp.example.com/oauth/callback'],
    });
  });

  it('with the streaming REST API: the stage at the root, the bridge on the REST API itself, the metadata where RFC 9728 puts it', () => {
    const { endpoint, template, mcp, stack } = withBridge({ api: 'rest-streaming', domain });
    expect(endpoint.url).toBe('https://mcp.example.com/mcp');
    // No second origin: the domain serves the issuer's root, so there is no authorization HTTP API.
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    const [, mapping] = only(template, 'AWS::ApiGatewayV2::ApiMapping');
    expect(stack.resolve(mapping.Properties.ApiId)).toEqual(stack.resolve(endpoint.restApi!.api.restApiId));
    expect(envOf(mcp)).toMatchObject({
      MCP_AUTH_ISSUER: 'https://mcp.example.com',
      MCP_AUTH_RESOURCE: 'https://mcp.example.com/mcp',
    });
    expect(envOf(mcp).MCP_AUTH_METADATA_URL).toBeUndefined();
    const paths = Object.values(template.findResources('AWS::ApiGateway::Resource')).map(
      (r) => r.Properties.PathPart,
    );
    for (const part of [
      'oauth-authorization-server',
      'openid-configuration',
      'authorize',
      'token',
      'jwks',
      'mcp',
    ])
      expect(paths).toContain(part);
    const bridge = lambdaFunction(template, 'MCP authorization bridge');
    const bridgeMethods = Object.values(template.findResources('AWS::ApiGateway::Method')).filter((m) =>
      JSON.stringify(m.Properties.Integration).includes(bridge.id),
    );
    // One method per bridge route key (the REST API has no automatic OPTIONS of its own here).
    expect(bridgeMethods.length).toBe(BRIDGE_ROUTE_KEYS.length);
    for (const m of bridgeMethods) expect(m.Properties.Integration.Type).toBe('AWS_PROXY');
  });

  it.each(['http', 'rest-streaming'] as const)(
    'disableExecuteApiEndpoint leaves only the domain serving the %s API',
    (api) => {
      const { template } = build({ api, domain: { ...domain, disableExecuteApiEndpoint: true } });
      const type = api === 'http' ? 'AWS::ApiGatewayV2::Api' : 'AWS::ApiGateway::RestApi';
      only(template, type, { DisableExecuteApiEndpoint: true });
    },
  );

  it('a named HTTP API stage is fine with OAuth behind a domain (the mapping serves it at the root)', () => {
    const { endpoint } = withBridge({ domain, stageName: 'prod' });
    expect(endpoint.auth?.resource).toBe('https://mcp.example.com/mcp');
  });

  it('refuses an auth resource that differs from the endpoint on the domain', () => {
    expect(() => build({ domain, auth: { ...bridged, resource: 'https://other.example.com/mcp' } })).toThrow(
      /auth resource "https:\/\/other.example.com\/mcp" differs from the endpoint on the custom domain/,
    );
  });

  it('refuses a domain without a certificate, before the first resource is made', () => {
    expect(() => build({ domain: { name: 'mcp.example.com' } })).toThrow(/needs a certificate/);
  });
});

describe('McpEndpoint web application firewall (waf)', () => {
  const zone = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'example.com' };

  it('is off by default: no web ACL and no association', () => {
    for (const api of ['http', 'rest-streaming'] as const) {
      const { template } = build({ api });
      template.resourceCountIs('AWS::WAFv2::WebACL', 0);
      template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    }
  });

  it('puts the streaming REST API stage behind one web ACL, with the rate limit given', () => {
    const { template, endpoint } = build({ api: 'rest-streaming', waf: true, wafRateLimit: 1_200 });
    const [aclId, acl] = only(template, 'AWS::WAFv2::WebACL', { Scope: 'REGIONAL' });
    expect(acl.Properties.Rules[0].Statement.RateBasedStatement.Limit).toBe(1_200);
    const [stageId] = only(template, 'AWS::ApiGateway::Stage');
    const [, association] = only(template, 'AWS::WAFv2::WebACLAssociation', {
      WebACLArn: { 'Fn::GetAtt': [aclId, 'Arn'] },
    });
    expect(association.DependsOn).toContain(stageId);
    expect(JSON.stringify(association.Properties.ResourceArn)).toContain(
      JSON.stringify({ Ref: template.toJSON().Resources[stageId].Properties.RestApiId.Ref }).slice(1, -1),
    );
    expect(endpoint.firewall?.rateLimit).toBe(1_200);
    expect(endpoint.firewall?.countOnlyRules).toEqual(['SizeRestrictions_BODY']);
  });

  it('passes the count-only rules on to the web ACL', () => {
    const countOnly = ['SizeRestrictions_BODY', 'GenericLFI_BODY'];
    const { template } = build({ api: 'rest-streaming', waf: true, wafCountOnlyRules: countOnly });
    const [, acl] = only(template, 'AWS::WAFv2::WebACL');
    const common = acl.Properties.Rules.find((r: any) => r.Name === 'AWSManagedRulesCommonRuleSet');
    expect(common.Statement.ManagedRuleGroupStatement.RuleActionOverrides.map((o: any) => o.Name)).toEqual(
      countOnly,
    );
  });

  it('with the Cognito bridge on a custom domain, the one protected REST API carries the bridge too', () => {
    const stack = newStack();
    new McpEndpoint(stack, 'Mcp', {
      api: 'rest-streaming',
      waf: true,
      auth: { mode: 'oauth', cognito: {} },
      domain: { name: 'mcp.example.com', hostedZone: zone },
    });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 0);
    template.resourceCountIs('AWS::ApiGateway::RestApi', 1);
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
  });

  it('with the bridge, sign-in’s loopback redirect URIs and long callback queries pass on the /oauth/ routes only', () => {
    const endpoint = new McpEndpoint(newStack(), 'Mcp', {
      api: 'rest-streaming',
      waf: true,
      auth: { mode: 'oauth', cognito: {} },
      domain: { name: 'mcp.example.com', hostedZone: zone },
    });
    expect(endpoint.firewall?.exemptedRules).toEqual([
      'GenericRFI_QUERYARGUMENTS',
      'GenericRFI_BODY',
      'SizeRestrictions_QUERYSTRING',
    ]);
    for (const auth of [undefined, { mode: 'oauth', issuer: 'https://issuer.example.com' }] as const)
      expect(
        build({ api: 'rest-streaming', waf: true, ...(auth ? { auth } : {}) }).endpoint.firewall
          ?.exemptedRules,
      ).toEqual([]);
  });

  it('refuses the combinations AWS WAF cannot protect, naming the way out', () => {
    expect(() => build({ waf: true })).toThrow(
      /waf needs api "rest-streaming": AWS WAF protects REST API stages, not HTTP APIs/,
    );
    expect(() => build({ api: 'http', waf: true })).toThrow(/not HTTP APIs/);
    expect(() => build({ api: 'rest-streaming', waf: true, auth: { mode: 'oauth', cognito: {} } })).toThrow(
      /needs a custom domain .* HTTP API of its own, which AWS WAF cannot protect/,
    );
    expect(() => build({ api: 'rest-streaming', wafRateLimit: 100 })).toThrow(
      /wafRateLimit is used only with waf/,
    );
    expect(() => build({ api: 'rest-streaming', waf: true, wafRateLimit: 5 })).toThrow(/rateLimit must be/);
    expect(() => build({ api: 'rest-streaming', wafCountOnlyRules: ['GenericLFI_BODY'] })).toThrow(
      /wafCountOnlyRules is used only with waf/,
    );
  });

  it('an issuer of your own needs no domain: only the MCP API is served, and it is protected', () => {
    const stack = newStack();
    new McpEndpoint(stack, 'Mcp', {
      api: 'rest-streaming',
      waf: true,
      auth: { mode: 'oauth', issuer: 'https://issuer.example.com' },
    });
    Template.fromStack(stack).resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
  });
});

describe('McpEndpoint tracing', () => {
  // Lambda active tracing's own grant (Lambda's segments) and the spans' (OpenTelemetry to X-Ray's OTLP endpoint),
  // merged by the CDK into one statement.
  const xrayStatement = {
    Action: [
      'xray:PutSpans',
      'xray:PutSpansForIndexing',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ],
    Effect: 'Allow',
    Resource: '*',
  };
  const xrayEndpoint = {
    'Fn::Join': ['', ['https://xray.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/v1/traces']],
  };

  it('is off by default: no active tracing, no X-Ray permissions, no MCP_TRACING, no stage tracing', () => {
    for (const api of ['http', 'rest-streaming'] as const) {
      const { template, mcp, companion, worker } = build({ api });
      for (const fn of [mcp, companion, worker]) {
        expect(fn.resource.Properties.TracingConfig).toBeUndefined();
        expect(fn.resource.Properties.Environment.Variables.MCP_TRACING).toBeUndefined();
        expect(JSON.stringify(fn.statements)).not.toContain('xray:');
        expect(fn.statements.filter((s) => [s.Resource].flat().includes('*'))).toEqual([]);
      }
      for (const stage of Object.values(template.findResources('AWS::ApiGateway::Stage')))
        expect(stage.Properties.TracingEnabled).toBeUndefined();
    }
  });

  it.each(['http', 'rest-streaming'] as const)(
    'with %s: the MCP, companion and worker functions send spans to X-Ray, may write them and nothing more of X-Ray',
    (api) => {
      const { mcp, companion, worker } = build({ api, tracing: true });
      for (const fn of [mcp, companion, worker]) {
        expect(fn.resource.Properties.TracingConfig).toEqual({ Mode: 'Active' });
        expect(fn.resource.Properties.Environment.Variables).toMatchObject({
          MCP_TRACING: 'on',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: xrayEndpoint,
        });
        const xray = fn.statements.filter((s) => JSON.stringify(s.Action).includes('xray:'));
        expect(xray).toEqual([xrayStatement]);
        // The cdk-nag acknowledgement of Resource::* holds only for X-Ray: no other statement is on "*".
        expect(fn.statements.filter((s) => [s.Resource].flat().includes('*'))).toEqual([xrayStatement]);
        expectLeastPrivilege(fn.role, fn.statements);
      }
    },
  );

  it('with the bridge on the traced REST API, API Gateway never samples the /oauth/ routes (codes and state in queries)', () => {
    const zone = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'example.com' };
    const bridged = (props: McpEndpointProps) => {
      const stack = newStack();
      new McpEndpoint(stack, 'Mcp', {
        auth: { mode: 'oauth', cognito: {} },
        domain: { name: 'mcp.example.com', hostedZone: zone },
        ...props,
      });
      return Template.fromStack(stack);
    };
    const template = bridged({ api: 'rest-streaming', tracing: true });
    const [, rule] = only(template, 'AWS::XRay::SamplingRule');
    expect(rule.Properties.SamplingRule).toMatchObject({
      URLPath: '*/oauth/*',
      FixedRate: 0,
      ReservoirSize: 0,
      ServiceName: 'Test-mcp/prod',
    });
    // Not traced, or not on the REST API: nothing to exclude.
    bridged({ api: 'rest-streaming' }).resourceCountIs('AWS::XRay::SamplingRule', 0);
    bridged({ api: 'http', tracing: true }).resourceCountIs('AWS::XRay::SamplingRule', 0);
    build({ api: 'rest-streaming', tracing: true }).template.resourceCountIs('AWS::XRay::SamplingRule', 0);
  });

  it('traces the REST API stage too (an HTTP API has no X-Ray tracing)', () => {
    const { template } = build({ api: 'rest-streaming', tracing: true });
    only(template, 'AWS::ApiGateway::Stage', { TracingEnabled: true });
    const { template: http } = build({ api: 'http', tracing: true });
    for (const stage of Object.values(http.findResources('AWS::ApiGatewayV2::Stage')))
      expect(JSON.stringify(stage.Properties)).not.toMatch(/[Tt]rac/);
  });
});
