import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { AskRendezvous, type AskRendezvousProps } from '../../../src/ask-rendezvous.ts';
import { SessionSecret } from '../../../src/session-secret.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

function build(props: Partial<AskRendezvousProps> = {}) {
  const stack = newStack();
  const logGroup = new logs.LogGroup(stack, 'Logs');
  const rendezvous = new AskRendezvous(stack, 'Asking', { logGroup, metricsNamespace: 'MCP/Test', ...props });
  const role = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  rendezvous.grantQuestions(role);
  const template = Template.fromStack(stack);
  return { stack, rendezvous, template, role };
}

describe('AskRendezvous', () => {
  it('keeps questions in an on-demand table keyed by pk, whose items expire through expiresAt', () => {
    const [, table] = only(build().template, 'AWS::DynamoDB::Table');
    expect(table.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      SSESpecification: { SSEEnabled: true },
    });
    expect(table.DeletionPolicy).toBe('Delete');
  });

  it('RETAIN keeps the table', () => {
    const [, table] = only(build({ removalPolicy: RemovalPolicy.RETAIN }).template, 'AWS::DynamoDB::Table');
    expect(table.DeletionPolicy).toBe('Retain');
  });

  it('grants the four item operations of the rendezvous on its table, nothing else', () => {
    const { template } = build();
    const [tableId] = only(template, 'AWS::DynamoDB::Table');
    const [, policy] = only(template, 'AWS::IAM::Policy');
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
        Resource: { 'Fn::GetAtt': [tableId, 'Arn'] },
      },
    ]);
  });

  it('alarms on throttled table writes and on the writes the MCP function logged as failed, notifying the actions', () => {
    const stack = newStack();
    const topic = new sns.Topic(stack, 'Topic');
    const logGroup = new logs.LogGroup(stack, 'Logs');
    new AskRendezvous(stack, 'Asking', {
      logGroup,
      metricsNamespace: 'MCP/Test',
      alarmActions: [new SnsAction(topic)],
    });
    const template = Template.fromStack(stack);
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.map((a) => a.Properties.MetricName)).toEqual([
      'WriteThrottleEvents',
      'RendezvousWriteFailures',
    ]);
    for (const alarm of alarms) {
      expect(alarm.Properties).toMatchObject({ Threshold: 1, TreatMissingData: 'notBreaching' });
      expect(alarm.Properties.AlarmActions).toHaveLength(1);
      expect(alarm.Properties.OKActions).toHaveLength(1);
    }
    const [, filter] = only(template, 'AWS::Logs::MetricFilter');
    expect(filter.Properties.FilterPattern).toBe('{ $.message = "rendezvous write failed*" }');
    expect(filter.Properties.MetricTransformations).toEqual([
      {
        MetricNamespace: 'MCP/Test',
        MetricName: 'RendezvousWriteFailures',
        MetricValue: '1',
        DefaultValue: 0,
      },
    ]);
  });
});

describe('SessionSecret', () => {
  it('generates a 64-character key and lets a grantee read exactly that secret', () => {
    const stack = newStack();
    const secret = new SessionSecret(stack, 'Sessions');
    const role = new iam.Role(stack, 'Caller', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    });
    secret.grantRead(role);
    const template = Template.fromStack(stack);
    const [secretId, resource] = only(template, 'AWS::SecretsManager::Secret');
    expect(resource.Properties.GenerateSecretString).toEqual({
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    const [, policy] = only(template, 'AWS::IAM::Policy');
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secretId } },
    ]);
    expect(stack.resolve(secret.environment)).toEqual({ MCP_SESSION_SECRET_ARN: { Ref: secretId } });
  });
});
