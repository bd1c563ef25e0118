import { CfnResource } from 'aws-cdk-lib';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { McpEndpoint } from '@mcp-lambda/cdk';
import type { McpStackProps } from '../../infra/stack.ts';
import { servedToolNames, synthStack, TEMPLATE_TOOL_NAMES } from './synth.ts';
import { STAND_IN_TOOL } from '../support/stand-in-tool.ts';
import { lambdaFunction, only } from '@mcp-lambda/cdk/testing';

/** The deployable stack, open unless `auth` says otherwise (authorization has its own tests in auth.test.ts). */
function build(props: McpStackProps = {}) {
  return synthStack({ ...props, endpoint: { auth: { mode: 'none' }, ...props.endpoint } });
}

const outputsOf = (template: Template) => template.toJSON().Outputs as Record<string, { Value: unknown }>;

describe('McpStack', () => {
  it('only composes: every resource but the CDK’s own bucket auto-delete provider lives in its one McpEndpoint', () => {
    const { stack } = build();
    expect(stack.node.children.filter((c) => c instanceof McpEndpoint)).toEqual([stack.endpoint]);
    const elsewhere = stack.node
      .findAll()
      .filter((c) => c instanceof CfnResource && !c.node.path.startsWith(`${stack.endpoint.node.path}/`))
      .map((c) => c.node.path);
    expect(elsewhere).toEqual([
      expect.stringMatching(/^McpServer\/Custom::S3AutoDeleteObjectsCustomResourceProvider\//),
      expect.stringMatching(/^McpServer\/Custom::S3AutoDeleteObjectsCustomResourceProvider\//),
    ]);
  });

  it('the outputs give the endpoint URL, the bucket, the MCP function, its log group and the dashboard', () => {
    const { template } = build();
    const outputs = outputsOf(template);
    expect(Object.keys(outputs).sort()).toEqual([
      'DashboardUrl',
      'McpEndpointUrl',
      'McpFunctionName',
      'McpLogGroupName',
      'OutputBucketName',
    ]);
    const [api] = only(template, 'AWS::ApiGatewayV2::Api');
    expect(outputs.McpEndpointUrl!.Value).toEqual({
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
    const [bucketId] = only(template, 'AWS::S3::Bucket');
    expect(outputs.OutputBucketName!.Value).toEqual({ Ref: bucketId });
    const mcp = lambdaFunction(template, 'Stateless MCP server');
    expect(outputs.McpFunctionName!.Value).toEqual({ Ref: mcp.id });
    expect(outputs.McpLogGroupName!.Value).toEqual({
      Ref: mcp.resource.Properties.LoggingConfig.LogGroup.Ref,
    });
    const [dashboardId] = only(template, 'AWS::CloudWatch::Dashboard');
    expect(JSON.stringify(outputs.DashboardUrl!.Value)).toContain(`{"Ref":"${dashboardId}"}`);
  });

  it('a named stage prefixes the endpoint path with the stage name in the URL output', () => {
    const { template } = build({ endpoint: { stageName: 'prod' } });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: 'prod' });
    expect(JSON.stringify(outputsOf(template).McpEndpointUrl!.Value)).toContain('"/prod/mcp"');
  });

  it('with the streaming REST API the URL output is the REST API stage URL plus the path', () => {
    const { template } = build({ endpoint: { api: 'rest-streaming' } });
    const url = JSON.stringify(outputsOf(template).McpEndpointUrl!.Value);
    expect(url).toContain('"/prod/mcp"');
    const [apiId] = only(template, 'AWS::ApiGateway::RestApi');
    expect(url).toContain(`{"Ref":"${apiId}"}`);
  });

  // The same check with the template's list and with a tool a user adds to it: nothing counts the examples.
  it.each<[string, readonly string[]]>([
    ["the template's tools", TEMPLATE_TOOL_NAMES],
    ["the template's tools and one a user adds", [...TEMPLATE_TOOL_NAMES, STAND_IN_TOOL]],
  ])('with %s an alarm topic receives alarm and recovery notifications of every alarm', (_, toolNames) => {
    const topic = 'arn:aws:sns:eu-west-1:123456789012:mcp-alarms';
    const { template } = build({ alarmTopicArn: topic, endpoint: { toolNames } });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    // Errors, throttles and p99 duration of three functions, API 5xx, the task worker's two own alarms, and the
    // error rate of each tool served.
    expect(alarms).toHaveLength(12 + servedToolNames(toolNames).length);
    const described = alarms.map((a) => String(a.Properties.AlarmDescription));
    for (const tool of servedToolNames(toolNames))
      expect(described.filter((d) => d.includes(`of tool ${tool} failed`))).toHaveLength(1);
    for (const a of alarms) {
      expect(a.Properties.AlarmActions).toEqual([topic]);
      expect(a.Properties.OKActions).toEqual([topic]);
    }
  });

  it('with an explicit authorization choice the synth has no warning', () => {
    const { stack } = build();
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
  });
});

describe('McpStack with Transaction Search', () => {
  it('turns it on only when asked: the X-Ray destination and a log policy for X-Ray of this account alone', () => {
    expect(JSON.stringify(build({ endpoint: { tracing: true } }).template.toJSON())).not.toMatch(
      /TransactionSearch|AWS::Logs::ResourcePolicy/,
    );
    const { template } = build({ endpoint: { tracing: true }, transactionSearch: true });
    const [configId, config] = only(template, 'AWS::XRay::TransactionSearchConfig');
    expect(config.Properties).toEqual({ IndexingPercentage: 1 });
    const [policyId, policy] = only(template, 'AWS::Logs::ResourcePolicy');
    expect(config.DependsOn).toContain(policyId);
    // Account-wide: removing the stack must not turn it off for everything else in the account.
    for (const resource of [config, policy])
      expect(resource).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(configId).toMatch(/TransactionSearch/);
    const document = JSON.stringify(policy.Properties.PolicyDocument);
    for (const part of [
      '\\"Service\\":\\"xray.amazonaws.com\\"',
      '\\"Action\\":\\"logs:PutLogEvents\\"',
      'log-group:aws/spans:*',
      'log-group:/aws/application-signals/data:*',
      'aws:SourceArn',
      'aws:SourceAccount',
    ])
      expect(document).toContain(part);
  });
});

describe('McpStack defaults of the operating options', () => {
  const resourcesOf = (props: McpStackProps) =>
    synthStack(props).template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;

  it.each<[string, McpStackProps['endpoint']]>([
    ['an open endpoint', { auth: { mode: 'none' } }],
    ['the Cognito bridge (what `cdk deploy` builds by default)', { auth: { mode: 'oauth', cognito: {} } }],
    ['the streaming REST API', { auth: { mode: 'none' }, api: 'rest-streaming' }],
  ])(
    'with %s the default template is the template with waf, tracing and the domain explicitly off',
    (_, endpoint) => {
      const byDefault = synthStack({ endpoint }).template.toJSON();
      const off = synthStack({
        endpoint: { ...endpoint, waf: false, tracing: false, domain: undefined, toolMetrics: true },
      }).template.toJSON();
      expect(off).toEqual(byDefault);
      expect(JSON.stringify(byDefault)).not.toMatch(/WAFv2|TracingConfig|xray:|TracingEnabled|DomainName"/);
    },
  );

  it('per-tool metrics are the only default change: two MCP function variables, an alarm per tool, dashboard rows', () => {
    const withMetrics = resourcesOf({ endpoint: { auth: { mode: 'none' } } });
    const without = resourcesOf({ endpoint: { auth: { mode: 'none' }, toolMetrics: false } });
    const added = Object.keys(withMetrics).filter((id) => !(id in without));
    expect(Object.keys(without).filter((id) => !(id in withMetrics))).toEqual([]);
    expect(added).toHaveLength(servedToolNames().length);
    for (const id of added) {
      expect(withMetrics[id]!.Type).toBe('AWS::CloudWatch::Alarm');
      expect(id).toMatch(/ErrorRateAlarm/);
    }
    const changed = Object.keys(without).filter(
      (id) => JSON.stringify(without[id]) !== JSON.stringify(withMetrics[id]),
    );
    expect(changed.map((id) => withMetrics[id]!.Type).sort()).toEqual([
      'AWS::CloudWatch::Dashboard',
      'AWS::Lambda::Function',
    ]);
    const fn = changed.find((id) => withMetrics[id]!.Type === 'AWS::Lambda::Function')!;
    const variables = (r: { Properties: any }) =>
      r.Properties.Environment.Variables as Record<string, unknown>;
    const { MCP_TOOL_METRICS, MCP_METRICS_NAMESPACE, ...rest } = variables(withMetrics[fn]!);
    expect({ MCP_TOOL_METRICS, MCP_METRICS_NAMESPACE }).toEqual({
      MCP_TOOL_METRICS: 'on',
      MCP_METRICS_NAMESPACE: 'MCP/McpServer',
    });
    expect(rest).toEqual(variables(without[fn]!));
    expect({ ...withMetrics[fn], Properties: { ...withMetrics[fn]!.Properties, Environment: null } }).toEqual(
      {
        ...without[fn],
        Properties: { ...without[fn]!.Properties, Environment: null },
      },
    );
  });
});
