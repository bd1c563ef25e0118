import { Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { RendezvousTableAttributes } from '@mcp-lambda/server/aws';
import { DEFAULT_ALARM_PERIOD, DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Properties of an {@link AskRendezvous}. */
export interface AskRendezvousProps {
  /** The MCP function's log group, whose "rendezvous write failed" lines the failed-writes alarm counts. Required. */
  readonly logGroup: logs.ILogGroup;
  /** CloudWatch namespace of the failed-writes metric. Required. */
  readonly metricsNamespace: string;
  /**
   * What `cdk destroy` does with the table.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Actions run when an alarm changes state.
   * @default - none
   */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
}

/** The message prefix of the MCP function's log lines for a rendezvous write that failed (asking/). */
const FAILED_WRITE = 'rendezvous write failed';

/**
 * Where mid-call questions wait for their answers (handshake era, streaming API; docs/asking.md): a DynamoDB table
 * of short-lived items (TTL), read by the waiting call and written by whichever instance receives the answer. Two
 * alarms: throttled writes on the table, and writes the MCP function reported failed (its log lines).
 */
export class AskRendezvous extends Construct {
  readonly table: dynamodb.Table;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: AskRendezvousProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: RendezvousTableAttributes.partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: RendezvousTableAttributes.ttl,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy ?? DEFAULT_REMOVAL_POLICY,
    });
    Validations.of(this.table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'Questions live as long as a tool waits for the answer (minutes at most) and expire by TTL; a ' +
        'point-in-time restore would only bring back questions nobody waits for, so it is not enabled.',
    });
    const failed = new logs.MetricFilter(this, 'FailedWrites', {
      logGroup: props.logGroup,
      filterPattern: logs.FilterPattern.stringValue('$.message', '=', `${FAILED_WRITE}*`),
      metricNamespace: props.metricsNamespace,
      metricName: 'RendezvousWriteFailures',
      metricValue: '1',
      defaultValue: 0,
    });
    this.alarm(
      'ThrottledWritesAlarm',
      this.table.metric('WriteThrottleEvents', { period: DEFAULT_ALARM_PERIOD, statistic: 'Sum' }),
      'Writes to the rendezvous table were throttled: questions or answers may be late or lost (the call then ' +
        'ends with an error the model sees).',
      props,
    );
    this.alarm(
      'FailedWritesAlarm',
      failed.metric({ period: DEFAULT_ALARM_PERIOD, statistic: 'Sum' }),
      'The MCP function could not write a question, an answer or a cancellation to the rendezvous table (see its ' +
        `"${FAILED_WRITE}" log lines).`,
      props,
    );
  }

  /**
   * Least privilege: the three item operations of the rendezvous, on this table only (no delete: a question is
   * closed and the TTL removes it). The logs of cut streams (docs/streaming.md) need only two of them: they are put
   * and read, never updated.
   */
  grantQuestions(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      resourceArns: [this.table.tableArn],
    });
  }

  /** The environment the MCP function finds the table in. */
  get environment(): Record<string, string> {
    return { MCP_ASK_TABLE: this.table.tableName };
  }

  private alarm(
    id: string,
    metric: cloudwatch.IMetric,
    description: string,
    props: AskRendezvousProps,
  ): void {
    const created = new cloudwatch.Alarm(this, id, {
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    for (const action of props.alarmActions ?? []) {
      created.addAlarmAction(action);
      created.addOkAction(action);
    }
    this.alarms.push(created);
  }
}
