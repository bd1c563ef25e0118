import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { LAMBDA_RUNTIME } from '../../../src/bundled-function.ts';
import { OutputBucket } from '../../../src/output-bucket.ts';
import { TaskWorker, type TaskWorkerProps } from '../../../src/task-worker.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { expectLeastPrivilege, lambdaFunction, logGroupArnOf, only } from '../../../src/testing/template.ts';

/** A TaskWorker (with its output bucket) in a fresh stack, and what the tests read from the template. */
function build(props: Partial<TaskWorkerProps> = {}, extra?: (worker: TaskWorker, role: iam.Role) => void) {
  const stack = newStack();
  const outputs = new OutputBucket(stack, 'Outputs');
  const worker = new TaskWorker(stack, 'Tasks', { outputs, ...props });
  if (extra) {
    const role = new iam.Role(stack, 'Caller', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    });
    extra(worker, role);
  }
  const template = Template.fromStack(stack);
  const fn = lambdaFunction(template, 'Task worker');
  const [tableId, table] = only(template, 'AWS::DynamoDB::Table');
  const [queueId, queue] = only(template, 'AWS::SQS::Queue');
  const [bucketId] = only(template, 'AWS::S3::Bucket');
  return { stack, worker, template, fn, tableId, table, queueId, queue, bucketId };
}

const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

describe('TaskWorker', () => {
  it('keeps task records in an on-demand table keyed by pk, whose items expire through the expiresAt attribute', () => {
    const { table } = build();
    expect(table.Properties).toMatchObject({
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      SSESpecification: { SSEEnabled: true },
    });
    expect(table.DeletionPolicy).toBe('Delete');
  });

  it('RETAIN keeps the table', () => {
    expect(build({ removalPolicy: RemovalPolicy.RETAIN }).table.DeletionPolicy).toBe('Retain');
  });

  it('runs the worker bundle on Node.js 22, arm64, for up to 15 minutes with 1024 MB', () => {
    const { fn } = build();
    expect(fn.resource.Properties).toMatchObject({
      Runtime: LAMBDA_RUNTIME.name,
      Architectures: ['arm64'],
      Handler: 'index.handler',
      Timeout: 900,
      MemorySize: 1024,
    });
  });

  it('the worker receives the table, the bucket and the settings it is given', () => {
    const { fn, tableId, bucketId } = build({ environment: { MCP_SERVER_NAME: 'acme', MCP_PAGE_SIZE: '5' } });
    expect(fn.resource.Properties.Environment.Variables).toEqual({
      POWERTOOLS_SERVICE_NAME: 'acme-worker',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      MCP_SERVER_NAME: 'acme',
      MCP_PAGE_SIZE: '5',
      OFFLOAD_BUCKET: { Ref: bucketId },
      OFFLOAD_PREFIX: 'outputs/',
      OFFLOAD_TTL_DAYS: '7',
      TASKS_TABLE: { Ref: tableId },
    });
  });

  it('never retries a run, drops a start older than a minute, and records failed runs in the queue', () => {
    const { template, fn, queueId } = build();
    const [, config] = only(template, 'AWS::Lambda::EventInvokeConfig');
    expect(config.Properties).toMatchObject({
      FunctionName: { Ref: fn.id },
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 60,
      DestinationConfig: { OnFailure: { Destination: arnOf(queueId) } },
    });
  });

  it('the failure queue is encrypted and refuses requests without TLS', () => {
    const { template, queue, queueId } = build();
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    expect(queue.Properties.MessageRetentionPeriod).toBe(14 * 86_400);
    const [, policy] = only(template, 'AWS::SQS::QueuePolicy');
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Deny',
        Action: 'sqs:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Resource: arnOf(queueId),
      }),
    ]);
  });

  it('the worker may write its logs, record failed runs, read and write task records and store (and delete) outputs: nothing else', () => {
    const { fn, tableId, queueId, bucketId } = build();
    expect(fn.statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: logGroupArnOf(fn.resource),
      },
      {
        Effect: 'Allow',
        Action: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
        Resource: arnOf(queueId),
      },
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: arnOf(tableId) },
      {
        Effect: 'Allow',
        Action: ['s3:DeleteObject', 's3:PutObject'],
        Resource: { 'Fn::Join': ['', [arnOf(bucketId), '/outputs/*']] },
      },
    ]);
    expectLeastPrivilege(fn.role, fn.statements);
  });

  it('grantStart allows invoking exactly the worker, and grantRecords exactly GetItem and PutItem on the table', () => {
    let callerRole: iam.Role | undefined;
    const { template, fn, tableId, stack } = build({}, (worker, role) => {
      callerRole = role;
      worker.grantStart(role);
      worker.grantRecords(role);
    });
    const roleRef = stack.resolve(callerRole!.roleName);
    const [, policy] = only(template, 'AWS::IAM::Policy', { Roles: [roleRef] });
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: arnOf(fn.id) },
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: arnOf(tableId) },
    ]);
  });

  it('alarms on a failed run recorded in the queue and on dropped starts, notifying the alarm actions', () => {
    const stack = newStack();
    const topic = sns.Topic.fromTopicArn(stack, 'Topic', 'arn:aws:sns:us-east-1:123456789012:alarms');
    const worker = new TaskWorker(stack, 'Tasks', {
      outputs: new OutputBucket(stack, 'Outputs'),
      alarmActions: [new SnsAction(topic)],
    });
    const alarms = Object.values(Template.fromStack(stack).findResources('AWS::CloudWatch::Alarm'));
    expect(worker.alarms).toHaveLength(2);
    expect(alarms.map((a) => a.Properties.MetricName).sort()).toEqual([
      'ApproximateNumberOfMessagesVisible',
      'AsyncEventsDropped',
    ]);
    for (const alarm of alarms) {
      expect(alarm.Properties).toMatchObject({ Threshold: 1, AlarmActions: [topic.topicArn] });
      expect(alarm.Properties.OKActions).toEqual([topic.topicArn]);
    }
  });

  it('timeout and memorySize reach the function', () => {
    const { fn } = build({ timeout: Duration.minutes(5), memorySize: 2048 });
    expect(fn.resource.Properties).toMatchObject({ Timeout: 300, MemorySize: 2048 });
  });

  it.each([
    ['a timeout above 15 minutes', { timeout: Duration.minutes(16) }, /timeout/],
    ['memory below 128 MB', { memorySize: 64 }, /memorySize/],
  ])('refuses %s and names the setting', (_, props, message) => {
    expect(() => build(props)).toThrow(message);
  });
});
