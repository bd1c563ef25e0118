import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as rest from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { McpMonitoring, type McpMonitoringProps } from '../../../src/mcp-monitoring.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:mcp-alarms';

/** McpMonitoring of two stand-in functions (28 s and 10 s) and one stage, in a fresh stack. */
function build(props: Partial<McpMonitoringProps> = {}) {
  const stack = newStack();
  const fn = (id: string) =>
    new lambda.Function(stack, id, {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => ({});'),
    });
  const mcp = fn('McpFn');
  const resources = fn('ResourcesFn');
  const api = new apigw.HttpApi(stack, 'Api', { createDefaultStage: false });
  const stage = api.addStage('Stage', { stageName: '$default', autoDeploy: true });
  const monitoring = new McpMonitoring(stack, 'Monitoring', {
    functions: [
      { label: 'Mcp', function: mcp, timeout: Duration.seconds(28) },
      { label: 'Resources', function: resources, timeout: Duration.seconds(10) },
    ],
    stage,
    requestLogGroup: new logs.LogGroup(stack, 'RequestLogs'),
    ...props,
  });
  const template = Template.fromStack(stack);
  const idOf = (f: lambda.Function) => stack.getLogicalId(f.node.defaultChild as lambda.CfnFunction);
  return { stack, monitoring, template, mcpId: idOf(mcp), resourcesId: idOf(resources) };
}

const alarmsOf = (template: Template) =>
  Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);

/** The alarms on one metric, of one function when its logical id is given. */
const alarmOn = (template: Template, metric: string, functionId?: string) =>
  alarmsOf(template).filter(
    (a) =>
      a.MetricName === metric &&
      (functionId === undefined ||
        (a.Dimensions as { Value: { Ref: string } }[]).some((d) => d.Value.Ref === functionId)),
  );

describe('McpMonitoring', () => {
  it.each([
    ['MCP', 'mcpId', 28_000],
    ['companion', 'resourcesId', 10_000],
  ] as const)(
    'the %s function has alarms on errors, throttles and p99 duration above 80 % of its timeout',
    (_, which, timeoutMs) => {
      const built = build();
      const id = built[which];
      expect(alarmOn(built.template, 'Errors', id)).toEqual([
        expect.objectContaining({
          Namespace: 'AWS/Lambda',
          Statistic: 'Sum',
          Threshold: 1,
          Period: 300,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          TreatMissingData: 'notBreaching',
        }),
      ]);
      expect(alarmOn(built.template, 'Throttles', id)).toEqual([
        expect.objectContaining({ Statistic: 'Sum', Threshold: 1 }),
      ]);
      expect(alarmOn(built.template, 'Duration', id)).toEqual([
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

  it('the API stage has an alarm on 5xx answers', () => {
    expect(alarmOn(build().template, '5xx')).toEqual([
      expect.objectContaining({ Namespace: 'AWS/ApiGateway', Statistic: 'Sum', Threshold: 1 }),
    ]);
  });

  it('a REST API stage is watched the same way, through its own metrics', () => {
    const stack = newStack();
    const fn = new lambda.Function(stack, 'Fn', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('export const handler = async () => ({});'),
    });
    const api = new rest.RestApi(stack, 'Rest', { deployOptions: { stageName: 'prod' } });
    api.root.addMethod('GET', new rest.MockIntegration());
    new McpMonitoring(stack, 'Monitoring', {
      functions: [{ label: 'Mcp', function: fn, timeout: Duration.minutes(15) }],
      stage: api.deploymentStage,
    });
    const template = Template.fromStack(stack);
    expect(alarmOn(template, '5XXError')).toEqual([
      expect.objectContaining({
        Namespace: 'AWS/ApiGateway',
        Statistic: 'Sum',
        Dimensions: expect.arrayContaining([expect.objectContaining({ Name: 'Stage' })]),
      }),
    ]);
    expect(alarmOn(template, 'Duration')[0]?.Threshold).toBe(900_000 * 0.8);
  });

  it('every alarm explains what to do and has no action unless one is given', () => {
    const { template, monitoring } = build();
    const alarms = alarmsOf(template);
    expect(alarms).toHaveLength(7);
    expect(monitoring.alarms).toHaveLength(7);
    for (const a of alarms) {
      expect(a.AlarmDescription).toMatch(/\w+/);
      expect(a.AlarmActions).toBeUndefined();
    }
  });

  it('alarm actions receive the alarm and the recovery notification of every alarm', () => {
    const notify: cloudwatch.IAlarmAction = { bind: () => ({ alarmActionArn: TOPIC }) };
    const { template } = build({ alarmActions: [notify] });
    for (const a of alarmsOf(template)) {
      expect(a.AlarmActions).toEqual([TOPIC]);
      expect(a.OKActions).toEqual([TOPIC]);
    }
  });

  it('errorThreshold, durationAlarmRatio and period reach the alarms', () => {
    const { template, mcpId } = build({
      errorThreshold: 3,
      durationAlarmRatio: 0.5,
      period: Duration.minutes(1),
    });
    expect(alarmOn(template, 'Errors', mcpId)).toEqual([
      expect.objectContaining({ Threshold: 3, Period: 60 }),
    ]);
    expect(alarmOn(template, 'Duration', mcpId)).toEqual([
      expect.objectContaining({ Threshold: 14_000, Period: 60 }),
    ]);
  });

  it('one dashboard shows the API, each function, the alarms and the per-method log table', () => {
    const [, dashboard] = only(build().template, 'AWS::CloudWatch::Dashboard');
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

  it('without a request log group the dashboard has no per-method table', () => {
    const { template } = build({ requestLogGroup: undefined });
    const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
    expect(JSON.stringify(dashboard.Properties.DashboardBody)).not.toContain('MCP requests by method');
  });

  it('dashboardUrl opens the dashboard in the CloudWatch console of the stack’s region', () => {
    const { stack, monitoring, template } = build();
    const [dashboardId] = only(template, 'AWS::CloudWatch::Dashboard');
    const url = JSON.stringify(stack.resolve(monitoring.dashboardUrl));
    expect(url).toContain('https://console.aws.amazon.com/cloudwatch/home?region=');
    expect(url).toContain('"AWS::Region"');
    expect(url).toContain(`{"Ref":"${dashboardId}"}`);
  });

  it.each([0, 1.5])('refuses a duration alarm ratio of %s', (ratio) => {
    expect(() => build({ durationAlarmRatio: ratio })).toThrow(
      /durationAlarmRatio must be above 0 and at most 1/,
    );
  });

  describe('per-tool metrics', () => {
    const toolMetrics = { namespace: 'MCP/Test', service: 'acme-tools', tools: ['ping', 'generate_report'] };
    const toolAlarms = (template: Template) =>
      alarmsOf(template).filter((a) => String(a.AlarmDescription).includes('of the calls of tool'));

    it('without them there are no tool widgets or alarms (the default of the construct)', () => {
      const { template } = build();
      expect(toolAlarms(template)).toEqual([]);
      const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
      expect(JSON.stringify(dashboard.Properties.DashboardBody)).not.toContain('Tool ping');
    });

    it('each tool gets a dashboard row: calls and errors, duration percentiles, bytes stored', () => {
      const { template } = build({ toolMetrics });
      const [, dashboard] = only(template, 'AWS::CloudWatch::Dashboard');
      const body = JSON.stringify(dashboard.Properties.DashboardBody);
      for (const tool of toolMetrics.tools)
        for (const title of ['calls and errors', 'duration (s)', 'bytes stored'])
          expect(body).toContain(`Tool ${tool}: ${title}`);
      for (const metric of [
        'mcp.server.operation.duration',
        'ToolErrors',
        'ProtocolErrors',
        'ClientErrors',
        'OffloadedBytes',
      ])
        expect(body).toContain(`\\"${metric}\\"`);
      expect(body).toContain('MCP/Test');
    });

    it('each tool has an error-rate alarm over its own metrics, in its namespace and dimensions', () => {
      const { template, monitoring } = build({ toolMetrics });
      const alarms = toolAlarms(template);
      expect(alarms).toHaveLength(2);
      expect(monitoring.alarms).toHaveLength(9);
      for (const [i, tool] of toolMetrics.tools.entries()) {
        const a = alarms[i]!;
        expect(a).toMatchObject({
          Threshold: 0.05,
          ComparisonOperator: 'GreaterThanThreshold',
          TreatMissingData: 'notBreaching',
        });
        const expression = a.Metrics.find((m: { Expression?: string }) => m.Expression);
        // Of the calls the client got right: bad arguments in bulk cannot dilute real failures.
        expect(expression.Expression).toBe(
          'IF((calls - FILL(clientErrors, 0)) >= 10, (FILL(toolErrors, 0) + FILL(protocolErrors, 0)) / (calls - FILL(clientErrors, 0)), 0)',
        );
        const stats = a.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat);
        expect(stats.map((m: any) => [m.Id, m.MetricStat.Metric.MetricName, m.MetricStat.Stat])).toEqual([
          ['calls', 'mcp.server.operation.duration', 'SampleCount'],
          ['toolErrors', 'ToolErrors', 'Sum'],
          ['protocolErrors', 'ProtocolErrors', 'Sum'],
          ['clientErrors', 'ClientErrors', 'Sum'],
        ]);
        for (const m of stats) {
          expect(m.MetricStat.Metric.Namespace).toBe('MCP/Test');
          expect(m.MetricStat.Metric.Dimensions).toEqual([
            { Name: 'gen_ai.tool.name', Value: tool },
            { Name: 'mcp.method.name', Value: 'tools/call' },
            { Name: 'service', Value: 'acme-tools' },
          ]);
          expect(m.MetricStat.Period).toBe(300);
        }
      }
    });

    it('the error-rate threshold and the smallest judged period reach the alarms', () => {
      const { template } = build({ toolMetrics, toolErrorRateThreshold: 0.2, toolErrorAlarmMinCalls: 3 });
      const [a] = toolAlarms(template);
      expect(a!.Threshold).toBe(0.2);
      expect(JSON.stringify(a!.Metrics)).toContain('IF((calls - FILL(clientErrors, 0)) >= 3,');
    });

    it.each([
      [{ toolErrorRateThreshold: 0 }, /toolErrorRateThreshold must be above 0 and at most 1/],
      [{ toolErrorAlarmMinCalls: 0 }, /toolErrorAlarmMinCalls must be a positive integer/],
    ])('refuses %j', (extra, message) => {
      expect(() => build({ toolMetrics, ...extra })).toThrow(message);
    });
  });
});
