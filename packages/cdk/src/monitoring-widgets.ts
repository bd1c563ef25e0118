import type { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { ToolMetrics } from '@mcp-lambda/server/lambda';

/**
 * The metrics of an API stage the monitoring reads: an HTTP API stage (`apigatewayv2.HttpStage`) and a REST API
 * stage (`apigateway.Stage`) both have them.
 */
export interface ApiStageMetrics {
  metricCount(props?: cloudwatch.MetricOptions): cloudwatch.IMetric;
  metricClientError(props?: cloudwatch.MetricOptions): cloudwatch.IMetric;
  metricServerError(props?: cloudwatch.MetricOptions): cloudwatch.IMetric;
  metricLatency(props?: cloudwatch.MetricOptions): cloudwatch.IMetric;
  metricIntegrationLatency(props?: cloudwatch.MetricOptions): cloudwatch.IMetric;
}

/** Where the MCP function writes its per-tool metrics (embedded metric format), and which tools it has. */
export interface ToolMetricsSource {
  /** CloudWatch namespace (MCP_METRICS_NAMESPACE). Required. */
  readonly namespace: string;
  /** The `service` dimension: the function's Powertools service name (its server name). Required. */
  readonly service: string;
  /** The registered tool names; known at synth time, one dashboard row and one alarm each. Required. */
  readonly tools: readonly string[];
}

/** The metrics of one function that its alarms watch and its dashboard row charts. */
export interface FunctionMetrics {
  readonly errors: cloudwatch.IMetric;
  readonly throttles: cloudwatch.IMetric;
  readonly p99: cloudwatch.IMetric;
}

/** The metrics of one tool: calls and each kind of failure, and the share of calls that failed. */
export interface ToolCallMetrics {
  readonly calls: cloudwatch.Metric;
  readonly toolErrors: cloudwatch.Metric;
  readonly protocolErrors: cloudwatch.Metric;
  readonly clientErrors: cloudwatch.Metric;
  readonly errorRate: cloudwatch.MathExpression;
}

/** The dashboard's first row: the API's requests and errors, and its latency. */
export function apiWidgets(
  stage: ApiStageMetrics,
  period: Duration,
  api5xx: cloudwatch.IMetric,
): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: 'API: requests and errors',
      left: [stage.metricCount({ period, statistic: 'Sum' })],
      right: [stage.metricClientError({ period, statistic: 'Sum' }), api5xx],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'API: latency (ms)',
      left: [
        stage.metricLatency({ period, statistic: 'p50' }),
        stage.metricLatency({ period, statistic: 'p99' }),
        stage.metricIntegrationLatency({ period, statistic: 'p99' }),
      ],
      width: 12,
    }),
  ];
}

/** One function's row: invocations and failures, duration against its timeout, concurrent executions. */
export function functionWidgets(
  label: string,
  fn: lambda.IFunction,
  timeout: Duration,
  period: Duration,
  watched: FunctionMetrics,
): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: `${label} function: invocations, errors, throttles`,
      left: [fn.metricInvocations({ period, statistic: 'Sum' }), watched.errors, watched.throttles],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: `${label} function: duration (ms)`,
      left: [
        fn.metricDuration({ period, statistic: 'p50' }),
        watched.p99,
        fn.metricDuration({ period, statistic: 'Maximum' }),
      ],
      leftAnnotations: [{ value: timeout.toMilliseconds(), label: 'timeout' }],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: `${label} function: concurrent executions`,
      left: [
        new cloudwatch.Metric({
          namespace: 'AWS/Lambda',
          metricName: 'ConcurrentExecutions',
          dimensionsMap: { FunctionName: fn.functionName },
          period,
          statistic: 'Maximum',
        }),
      ],
      width: 8,
    }),
  ];
}

/** A metric the MCP function writes for one tool (embedded metric format). */
const toolMetric =
  (source: ToolMetricsSource, tool: string, period: Duration) =>
  (name: string, statistic: string, label: string): cloudwatch.Metric =>
    new cloudwatch.Metric({
      namespace: source.namespace,
      metricName: name,
      dimensionsMap: {
        service: source.service,
        [ToolMetrics.methodDimension.name]: ToolMetrics.methodDimension.value,
        [ToolMetrics.dimension]: tool,
      },
      period,
      statistic,
      label,
    });

/** One tool's calls and failures; its error rate judges only periods with at least `minCalls` calls. */
export function toolCallMetrics(
  source: ToolMetricsSource,
  tool: string,
  period: Duration,
  minCalls: number,
): ToolCallMetrics {
  const metric = toolMetric(source, tool, period);
  // Every call adds one sample to the duration histogram: its sample count is the number of calls.
  const calls = metric(ToolMetrics.duration.name, 'SampleCount', 'calls');
  const toolErrors = metric(ToolMetrics.toolErrors.name, 'Sum', 'tool failures');
  const protocolErrors = metric(ToolMetrics.protocolErrors.name, 'Sum', 'server JSON-RPC errors');
  // Missing scopes, arguments that do not fit, invalid params: any client can cause them at will, so they are
  // shown but never alarm (a client must not be able to page the operator).
  const clientErrors = metric(ToolMetrics.clientErrors.name, 'Sum', 'client errors');
  // Errors are written only when they happen: a period without any reads as 0. Quiet periods never alarm. The rate
  // is of the calls the client got right: a flood of bad arguments must not dilute real failures below the threshold.
  const judged = '(calls - FILL(clientErrors, 0))';
  const errorRate = new cloudwatch.MathExpression({
    expression: `IF(${judged} >= ${minCalls}, (FILL(toolErrors, 0) + FILL(protocolErrors, 0)) / ${judged}, 0)`,
    usingMetrics: { calls, toolErrors, protocolErrors, clientErrors },
    period,
    label: 'error rate',
  });
  return { calls, toolErrors, protocolErrors, clientErrors, errorRate };
}

/** One tool's row: calls and errors with the error rate, duration, bytes stored. */
export function toolWidgets(
  source: ToolMetricsSource,
  tool: string,
  period: Duration,
  metrics: ToolCallMetrics,
): cloudwatch.IWidget[] {
  const metric = toolMetric(source, tool, period);
  return [
    new cloudwatch.GraphWidget({
      title: `Tool ${tool}: calls and errors`,
      left: [metrics.calls, metrics.toolErrors, metrics.protocolErrors, metrics.clientErrors],
      right: [metrics.errorRate],
      rightYAxis: { min: 0, max: 1, showUnits: false },
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: `Tool ${tool}: duration (s)`,
      left: [
        metric(ToolMetrics.duration.name, 'p50', 'p50'),
        metric(ToolMetrics.duration.name, 'p99', 'p99'),
        metric(ToolMetrics.duration.name, 'Maximum', 'max'),
      ],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: `Tool ${tool}: bytes stored (offloaded outputs)`,
      left: [metric(ToolMetrics.offloadedBytes.name, 'Sum', 'bytes')],
      width: 8,
    }),
  ];
}

/** The per-method table read from the MCP function's structured `request` log lines. */
export function requestTableWidget(logGroup: logs.ILogGroup): cloudwatch.IWidget {
  return new cloudwatch.LogQueryWidget({
    title: 'MCP requests by method and HTTP status (structured logs)',
    logGroupNames: [logGroup.logGroupName],
    queryLines: [
      'filter message = "request"',
      'stats count(*) as requests, avg(durationMs) as avgMs, pct(durationMs, 99) as p99Ms by rpcMethod, status',
      'sort requests desc',
    ],
    width: 24,
    height: 6,
  });
}
