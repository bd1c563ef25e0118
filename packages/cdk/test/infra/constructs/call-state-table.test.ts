import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { AskRendezvous, CallStateTable, type CallStateTableProps } from '../../../src/call-state-table.ts';
import { SessionSecret } from '../../../src/session-secret.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

function build(props: Partial<CallStateTableProps> = {}) {
  const stack = newStack();
  const logGroup = new logs.LogGroup(stack, 'Logs');
  const callState = new CallStateTable(stack, 'Asking', { logGroup, metricsNamespace: 'MCP/Test', ...props });
  const role = new iam.Role(stack, 'Caller', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  callState.grantReadWrite(role);
  const template = Template.fromStack(stack);
  return { stack, callState, template, role };
}

describe('CallStateTable', () => {
  it('keeps the call state in an on-demand table keyed by pk, whose items expire through expiresAt', () => {
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

  it('grants the three item operations of the call state on its table, nothing else', () => {
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
    new CallStateTable(stack, 'Asking', {
      logGroup,
      metricsNamespace: 'MCP/Test',
      alarmActions: [new SnsAction(topic)],
    });
    const template = Template.fromStack(stack);
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.map((a) => a.Properties.MetricName)).toEqual([
      'WriteThrottleEvents',
      'CallStateWriteFailures',
    ]);
    for (const alarm of alarms) {
      expect(alarm.Properties).toMatchObject({ Threshold: 1, TreatMissingData: 'notBreaching' });
      expect(alarm.Properties.AlarmActions).toHaveLength(1);
      expect(alarm.Properties.OKActions).toHaveLength(1);
    }
    const [, filter] = only(template, 'AWS::Logs::MetricFilter');
    expect(filter.Properties.FilterPattern).toBe('{ $.message = "call state write failed*" }');
    expect(filter.Properties.MetricTransformations).toEqual([
      {
        MetricNamespace: 'MCP/Test',
        MetricName: 'CallStateWriteFailures',
        MetricValue: '1',
        DefaultValue: 0,
      },
    ]);
  });
});

describe('AskRendezvous, the name of the previous release', () => {
  it('is the same construct: an app still builds it, and it makes the same resources under the same ids', () => {
    const renamed = newStack();
    const logGroup = new logs.LogGroup(renamed, 'Logs');
    const old = new AskRendezvous(renamed, 'Asking', { logGroup, metricsNamespace: 'MCP/Test' });
    expect(old).toBeInstanceOf(CallStateTable);
    const role = new iam.Role(renamed, 'Caller', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    });
    old.grantQuestions(role);
    expect(Template.fromStack(renamed).toJSON()).toEqual(build().template.toJSON());
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
