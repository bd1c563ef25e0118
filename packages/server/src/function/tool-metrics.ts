import { Metrics } from '@aws-lambda-powertools/metrics';
import type { ToolMetricsConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import type { ToolCallObserver } from '../tools/observer.ts';
import { ToolMetrics, toolMetricValues } from '../tools/tool-metrics.ts';

/**
 * Per-tool metrics through Powertools Metrics: each answered tool call becomes one CloudWatch embedded metric
 * format line on stdout (dimensions `service`, `mcp.method.name` and `gen_ai.tool.name`), which CloudWatch Logs
 * turns into metrics. Nothing is sent over the network on the request path. The line is written at once, so
 * concurrent calls (the local server) never share one. The MCP function imports this module (and with it Powertools Metrics) at cold start and only
 * when the metrics are on, so it is a chunk of its own that a function without them never loads.
 */
export function toolMetricsObserver(
  config: ToolMetricsConfig,
  serviceName: string,
  log: Logger,
): ToolCallObserver {
  const metrics = new Metrics({ namespace: config.namespace, serviceName });
  return {
    toolCall(record) {
      // A metric that cannot be written must not fail the call it describes.
      try {
        metrics.addDimension(ToolMetrics.methodDimension.name, ToolMetrics.methodDimension.value);
        metrics.addDimension(ToolMetrics.dimension, record.tool);
        for (const { name, unit, value } of toolMetricValues(record)) metrics.addMetric(name, unit, value);
        // Lambda's log-level filter reads `level` (a line without one counts as INFO).
        metrics.addMetadata('level', config.logLevel);
        metrics.publishStoredMetrics();
      } catch (error) {
        log.warn('tool metrics not written', { tool: record.tool, error: String(error) });
      }
    },
  };
}
