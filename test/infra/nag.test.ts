import { RemovalPolicy, Validations, type App } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import type { McpStackProps } from '../../infra/stack.ts';
import { synthStack } from './synth.ts';

/** Runs the AWS Solutions pack over the app and lists what is left, as `rule at construct path`. */
function findings(app: App): string[] {
  const report = new AwsSolutionsChecks(app).validateScope(app);
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.ruleName} (${v.severity}) at ${r.constructPath}: ${v.description}`),
  );
}

/** Every acknowledgment recorded anywhere in the tree: rule id → reason. */
function acknowledgments(root: IConstruct): Map<string, string> {
  const found = new Map<string, string>();
  for (const node of root.node.findAll()) {
    for (const entry of node.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>))
        found.set(`${id.replace(/^annotation::/i, '')} @ ${node.node.path}`, reason);
    }
  }
  return found;
}

/** An open endpoint (OAuth stacks have their own nag checks in auth.test.ts) with the given settings. */
const OPEN = { auth: { mode: 'none' } } as const;

describe('cdk-nag AWS Solutions checks', () => {
  it.each<[string, McpStackProps]>([
    ['the stack with every default', { endpoint: OPEN }],
    [
      'a named stage with CORS origins',
      { endpoint: { ...OPEN, stageName: 'prod', allowedOrigins: ['https://app.example.com'] } },
    ],
    ['a retained bucket', { endpoint: { ...OPEN, removalPolicy: RemovalPolicy.RETAIN } }],
    ['an alarm topic', { endpoint: OPEN, alarmTopicArn: 'arn:aws:sns:us-east-1:123456789012:alarms' }],
    ['the streaming REST API', { endpoint: { ...OPEN, api: 'rest-streaming' } }],
    [
      'tracing with Transaction Search turned on',
      { endpoint: { ...OPEN, tracing: true }, transactionSearch: true },
    ],
    [
      'the streaming REST API with CORS origins',
      { endpoint: { ...OPEN, api: 'rest-streaming', allowedOrigins: ['https://app.example.com'] } },
    ],
  ])('%s has no unacknowledged finding, error or warning', (_, props) => {
    const { app } = synthStack(props);
    expect(findings(app)).toEqual([]);
  });

  // Every combination of the operating options: API kind × custom domain × firewall (REST only) × tracing, open
  // and behind the Cognito bridge (whose firewall needs the domain).
  const zone = { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zoneName: 'example.com' };
  const combinations: [string, McpStackProps][] = [];
  for (const api of ['http', 'rest-streaming'] as const)
    for (const domain of [undefined, { name: 'mcp.example.com', hostedZone: zone }])
      for (const waf of api === 'http' ? [false] : [false, true])
        for (const tracing of [false, true])
          for (const auth of [OPEN.auth, { mode: 'oauth', cognito: {} } as const]) {
            if (waf && auth.mode === 'oauth' && !domain) continue;
            const name = [
              api,
              domain ? 'domain' : 'no domain',
              waf ? 'waf' : 'no waf',
              tracing ? 'tracing' : 'no tracing',
              auth.mode === 'oauth' ? 'Cognito bridge' : 'open',
            ].join(' × ');
            combinations.push([
              name,
              { endpoint: { api, auth, waf, tracing, ...(domain ? { domain } : {}) } },
            ]);
          }
  it.each(combinations)('%s has no unacknowledged finding', (_, props) => {
    const { app } = synthStack(props);
    expect(findings(app)).toEqual([]);
  });

  it('with the firewall the REST API needs no WAF acknowledgment, and tracing only the X-Ray write grant', () => {
    const rulesOf = (props: McpStackProps) =>
      new Set(
        [...acknowledgments(synthStack(props).app).keys()].map((k) =>
          k.replace(/ @ .*$/, '').replace(/<\w+\.Arn>/, '<Bucket.Arn>'),
        ),
      );
    const rest = rulesOf({ endpoint: { ...OPEN, api: 'rest-streaming' } });
    const protectedRest = rulesOf({ endpoint: { ...OPEN, api: 'rest-streaming', waf: true } });
    expect([...rest].filter((r) => !protectedRest.has(r))).toEqual(['AwsSolutions-APIG3']);
    expect([...protectedRest].filter((r) => !rest.has(r))).toEqual([]);
    const traced = rulesOf({ endpoint: { ...OPEN, tracing: true } });
    const plain = rulesOf({ endpoint: OPEN });
    expect([...traced].filter((r) => !plain.has(r))).toEqual(['AwsSolutions-IAM5[Resource::*]']);
  });

  it('acknowledges exactly the expected findings, each with a written reason', () => {
    const { app } = synthStack({ endpoint: OPEN });
    const acks = acknowledgments(app);
    const rules = [...acks.keys()].map((k) => k.replace(/ @ .*$/, '').replace(/<\w+\.Arn>/, '<Bucket.Arn>'));
    expect([...new Set(rules)].sort()).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-DDB3',
      'AwsSolutions-IAM5[Resource::<Bucket.Arn>/outputs/*]',
      'AwsSolutions-L1',
      'AwsSolutions-S1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
    ]);
    for (const [where, reason] of acks) {
      expect(reason.length, `reason of ${where}`).toBeGreaterThanOrEqual(80);
    }
  });

  it('with the streaming REST API it acknowledges the REST-specific findings too, each with a written reason', () => {
    const { app } = synthStack({ endpoint: { ...OPEN, api: 'rest-streaming' } });
    const acks = acknowledgments(app);
    const rules = [...acks.keys()].map((k) => k.replace(/ @ .*$/, '').replace(/<\w+\.Arn>/, '<Bucket.Arn>'));
    expect([...new Set(rules)].sort()).toEqual([
      'AwsSolutions-APIG2',
      'AwsSolutions-APIG3',
      'AwsSolutions-APIG4',
      'AwsSolutions-COG4',
      'AwsSolutions-DDB3',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'AwsSolutions-IAM5[Resource::<Bucket.Arn>/outputs/*]',
      'AwsSolutions-L1',
      'AwsSolutions-S1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
    ]);
    for (const [where, reason] of acks) {
      expect(reason.length, `reason of ${where}`).toBeGreaterThanOrEqual(80);
    }
  });

  it('a finding nobody acknowledged is reported (the check is live, not silenced)', () => {
    const { app, stack } = synthStack({ endpoint: OPEN });
    new Bucket(stack, 'PlainBucket');
    const reported = findings(app).filter((f) => f.includes('/PlainBucket/'));
    expect(reported.some((f) => f.startsWith('AwsSolutions-S1 (error)'))).toBe(true);
    expect(reported.some((f) => f.startsWith('AwsSolutions-S10 (error)'))).toBe(true);
  });
});
