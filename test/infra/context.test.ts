import { readFileSync } from 'node:fs';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS, readSettings, type AppSettings, type ContextKey } from '../../infra/context.ts';

const settings = (context: Partial<Record<ContextKey, unknown>>): AppSettings =>
  readSettings((key) => context[key]);

describe('app settings from CDK context', () => {
  it('with no context every setting keeps the construct default', () => {
    expect(settings({})).toEqual({ stackName: 'McpServer', endpoint: {} });
  });

  it.each<[string, Partial<Record<ContextKey, unknown>>, Partial<AppSettings>]>([
    ['a stack name', { stackName: 'TeamMcp' }, { stackName: 'TeamMcp' }],
    ['a server name', { serverName: 'acme' }, { endpoint: { serverName: 'acme' } }],
    ['a stage name', { stageName: 'prod' }, { endpoint: { stageName: 'prod' } }],
    ['the streaming REST API', { api: 'rest-streaming' }, { endpoint: { api: 'rest-streaming' } }],
    ['the HTTP API, in any case', { api: 'HTTP' }, { endpoint: { api: 'http' } }],
    [
      'origins as a comma-separated string (-c)',
      { allowedOrigins: 'https://a.example, https://b.example' },
      { endpoint: { allowedOrigins: ['https://a.example', 'https://b.example'] } },
    ],
    [
      'origins as a JSON array (cdk.json)',
      { allowedOrigins: ['https://a.example'] },
      { endpoint: { allowedOrigins: ['https://a.example'] } },
    ],
    ['numbers as strings (-c)', { mcpMemorySize: '2048' }, { endpoint: { mcpMemorySize: 2048 } }],
    ['numbers as JSON numbers (cdk.json)', { offloadTtlDays: 3 }, { endpoint: { offloadTtlDays: 3 } }],
    [
      'throttling limits',
      { throttleRateLimit: '20', throttleBurstLimit: 40 },
      { endpoint: { throttleRateLimit: 20, throttleBurstLimit: 40 } },
    ],
    [
      'an offload threshold',
      { offloadThresholdBytes: '65536' },
      { endpoint: { offloadThresholdBytes: 65536 } },
    ],
    [
      'timeouts in seconds',
      { mcpTimeoutSeconds: '20', resourcesTimeoutSeconds: 5 },
      { endpoint: { mcpTimeout: Duration.seconds(20), resourcesTimeout: Duration.seconds(5) } },
    ],
    ['a companion memory size', { resourcesMemorySize: 256 }, { endpoint: { resourcesMemorySize: 256 } }],
    ['a log level in any case', { logLevel: 'debug' }, { endpoint: { logLevel: 'DEBUG' } }],
    [
      'a log retention in days',
      { logRetentionDays: '90' },
      { endpoint: { logRetention: RetentionDays.THREE_MONTHS } },
    ],
    [
      'removal policy retain',
      { removalPolicy: 'retain' },
      { endpoint: { removalPolicy: RemovalPolicy.RETAIN } },
    ],
    [
      'removal policy destroy',
      { removalPolicy: 'DESTROY' },
      { endpoint: { removalPolicy: RemovalPolicy.DESTROY } },
    ],
    [
      'an alarm topic',
      { alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms' },
      { alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:alarms' },
    ],
    ['per-tool metrics switched off (-c)', { toolMetrics: 'false' }, { endpoint: { toolMetrics: false } }],
    ['per-tool metrics switched on (cdk.json)', { toolMetrics: true }, { endpoint: { toolMetrics: true } }],
    [
      'a metrics namespace',
      { metricsNamespace: 'Acme/Tools' },
      { endpoint: { metricsNamespace: 'Acme/Tools' } },
    ],
  ])('reads %s', (_, context, expected) => {
    expect(settings(context)).toEqual({ stackName: 'McpServer', endpoint: {}, ...expected });
  });

  it.each<[string, Partial<Record<ContextKey, unknown>>, RegExp]>([
    ['a memory size that is not a number', { mcpMemorySize: 'lots' }, /"mcpMemorySize" must be an integer/],
    ['a fractional TTL', { offloadTtlDays: 1.5 }, /"offloadTtlDays" must be an integer/],
    ['an unknown log level', { logLevel: 'LOUD' }, /"logLevel" must be one of DEBUG, INFO, WARN, ERROR/],
    [
      'a retention CloudWatch does not offer',
      { logRetentionDays: 2 },
      /"logRetentionDays" must be a CloudWatch/,
    ],
    [
      'an unknown removal policy',
      { removalPolicy: 'snapshot' },
      /"removalPolicy" must be "destroy" or "retain"/,
    ],
    [
      'origins of the wrong type',
      { allowedOrigins: 42 },
      /"allowedOrigins" must be a comma-separated string/,
    ],
    ['a stage name that is not a string', { stageName: 7 }, /"stageName" must be a string/],
    ['an unknown API kind', { api: 'websocket' }, /"api" must be "http" or "rest-streaming"/],
    ['per-tool metrics neither on nor off', { toolMetrics: 'maybe' }, /"toolMetrics" must be true or false/],
    [
      'an ARN that is not an SNS topic',
      { alarmTopicArn: 'arn:aws:sqs:eu-west-1:1:q' },
      /"alarmTopicArn" must be/,
    ],
  ])('refuses %s and names the context key', (_, context, message) => {
    expect(() => settings(context)).toThrow(message);
  });

  it('every context key has a row in the configuration table of infra/README.md', () => {
    const readme = readFileSync(new URL('../../infra/README.md', import.meta.url), 'utf8');
    const rows = CONTEXT_KEYS.filter((key) => new RegExp(`^\\|\\s*\`${key}\`\\s*\\|`, 'm').test(readme));
    expect(rows).toEqual([...CONTEXT_KEYS]);
  });
});
