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
      'the streaming REST API with CORS origins',
      { endpoint: { ...OPEN, api: 'rest-streaming', allowedOrigins: ['https://app.example.com'] } },
    ],
  ])('%s has no unacknowledged finding, error or warning', (_, props) => {
    const { app } = synthStack(props);
    expect(findings(app)).toEqual([]);
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
