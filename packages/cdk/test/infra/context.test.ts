import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS, readSettings, type AppSettings, type ContextKey } from '../../src/context/settings.ts';

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0b6a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';

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
      'the firewall with the streaming REST API and a rate limit (-c)',
      { api: 'rest-streaming', waf: 'true', wafRateLimit: '1200' },
      { endpoint: { api: 'rest-streaming', waf: true, wafRateLimit: 1200 } },
    ],
    [
      'the firewall counting the size rule and the XSS body rule only (-c)',
      { api: 'rest-streaming', waf: 'true', wafCountOnly: 'SizeRestrictions_BODY, CrossSiteScripting_BODY' },
      {
        endpoint: {
          api: 'rest-streaming',
          waf: true,
          wafCountOnlyRules: ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY'],
        },
      },
    ],
    [
      'the firewall counting every body rule of the common rule set (cdk.json shorthand)',
      { api: 'rest-streaming', waf: true, wafCountOnly: ['body'] },
      {
        endpoint: {
          api: 'rest-streaming',
          waf: true,
          wafCountOnlyRules: [
            'SizeRestrictions_BODY',
            'EC2MetaDataSSRF_BODY',
            'GenericLFI_BODY',
            'GenericRFI_BODY',
            'CrossSiteScripting_BODY',
          ],
        },
      },
    ],
    ['tracing switched on (-c)', { tracing: 'true' }, { endpoint: { tracing: true } }],
    ['tracing switched off (cdk.json)', { tracing: false }, { endpoint: { tracing: false } }],
    [
      'a metrics namespace',
      { metricsNamespace: 'Acme/Tools' },
      { endpoint: { metricsNamespace: 'Acme/Tools' } },
    ],
    [
      'a custom domain in a hosted zone, the name in any case',
      {
        domainName: 'MCP.Example.com',
        domainHostedZoneId: 'Z0123456789ABCDEFGHIJ',
        domainHostedZoneName: 'example.com',
      },
      {
        endpoint: {
          domain: {
            name: 'mcp.example.com',
            hostedZone: { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'example.com' },
          },
        },
      },
    ],
    [
      'a custom domain with a certificate, serving alone',
      {
        domainName: 'mcp.example.com',
        domainCertificateArn: CERTIFICATE,
        disableExecuteApiEndpoint: 'true',
      },
      {
        endpoint: {
          domain: { name: 'mcp.example.com', certificateArn: CERTIFICATE, disableExecuteApiEndpoint: true },
        },
      },
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
      'the firewall on the HTTP API (the default api)',
      { waf: 'true' },
      /"waf" must be used with api=rest-streaming \(AWS WAF protects REST API stages, not HTTP APIs\)/,
    ],
    [
      'the firewall explicitly on the HTTP API',
      { api: 'http', waf: true },
      /"waf" must be used with api=rest-streaming/,
    ],
    [
      'a firewall rate limit without the firewall',
      { api: 'rest-streaming', wafRateLimit: '500' },
      /"wafRateLimit" must be used only with waf=true/,
    ],
    [
      'count-only firewall rules without the firewall',
      { api: 'rest-streaming', wafCountOnly: 'body' },
      /"wafCountOnly" must be used only with waf=true/,
    ],
    ['tracing neither on nor off', { tracing: 'active' }, /"tracing" must be true or false/],
    [
      'a certificate without a domain name',
      { domainCertificateArn: CERTIFICATE },
      /"domainCertificateArn" must be used only with domainName/,
    ],
    [
      'a hosted zone without a domain name',
      { domainHostedZoneId: 'Z0123456789ABCDEFGHIJ', domainHostedZoneName: 'example.com' },
      /"domainHostedZoneId" must be used only with domainName/,
    ],
    [
      'turning off the execute-api URL without a domain',
      { disableExecuteApiEndpoint: true },
      /"disableExecuteApiEndpoint" must be used only with domainName/,
    ],
    [
      'a domain without a certificate or a zone',
      { domainName: 'mcp.example.com' },
      /"domainName" must be given with a certificate: domainCertificateArn .* or domainHostedZoneId and domainHostedZoneName/,
    ],
    [
      'half a hosted zone (its id alone)',
      { domainName: 'mcp.example.com', domainHostedZoneId: 'Z0123456789ABCDEFGHIJ' },
      /"domainHostedZoneName" must be set too/,
    ],
    [
      'half a hosted zone (its name alone)',
      {
        domainName: 'mcp.example.com',
        domainCertificateArn: CERTIFICATE,
        domainHostedZoneName: 'example.com',
      },
      /"domainHostedZoneId" must be set too/,
    ],
    [
      'a domain outside its hosted zone',
      {
        domainName: 'mcp.example.org',
        domainHostedZoneId: 'Z0123456789ABCDEFGHIJ',
        domainHostedZoneName: 'example.com',
      },
      /Context "domainName" and its settings: domain name mcp.example.org is not in the hosted zone example.com/,
    ],
    [
      'a certificate ARN of another service',
      { domainName: 'mcp.example.com', domainCertificateArn: 'arn:aws:iam::123456789012:role/x' },
      /is not an ACM certificate ARN/,
    ],
    [
      'an auth resource beside a domain (the domain decides the resource)',
      {
        domainName: 'mcp.example.com',
        domainCertificateArn: CERTIFICATE,
        authResource: 'https://x.example.com/mcp',
      },
      /"authResource" must be left out with domainName/,
    ],
    [
      'an ARN that is not an SNS topic',
      { alarmTopicArn: 'arn:aws:sqs:eu-west-1:1:q' },
      /"alarmTopicArn" must be/,
    ],
  ])('refuses %s and names the context key', (_, context, message) => {
    expect(() => settings(context)).toThrow(message);
  });

  it.each(CONTEXT_KEYS)('refuses a value of the wrong type for %s, naming the key', (key) => {
    expect(() => settings({ [key]: { nested: true } })).toThrow(`Context "${key}" must be`);
  });
});
