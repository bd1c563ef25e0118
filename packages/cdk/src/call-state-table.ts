import { Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CallStateTableAttributes } from '@mcp-lambda/server/aws';
import { failureCountAlarm } from './alarms.ts';
import { DEFAULT_ALARM_PERIOD, DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/** Properties of a {@link CallStateTable}. */
export interface CallStateTableProps {
  /** The MCP function's log group, whose "call state write failed" lines the failed-writes alarm counts. Required. */
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

/** The message prefix of the MCP function's log lines for a call state write that failed. */
const FAILED_WRITE = 'call state write failed';

/**
 * The call state of the handshake era (streaming API; docs/asking.md, docs/streaming.md): one DynamoDB table of
 * short-lived items (TTL) holding the mid-call questions waiting for their answers, the clients' cancellations of
 * their calls, and the logs of cut streams, each read by the waiting call (or the resuming `GET`) and written by
 * whichever instance receives the answer or the cancellation. Two alarms: throttled writes on the table, and writes
 * the MCP function reported failed (its log lines). Give it the id `Asking` (as `McpEndpoint` does) to keep the
 * table an earlier release created under the name `AskRendezvous`.
 */
export class CallStateTable extends Construct {
  readonly table: dynamodb.Table;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: CallStateTableProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: CallStateTableAttributes.partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: CallStateTableAttributes.ttl,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy ?? DEFAULT_REMOVAL_POLICY,
    });
    Validations.of(this.table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'Items live as long as a call (minutes at most, a cut stream a few minutes more) and expire by TTL; a ' +
        'point-in-time restore would only bring back state no call waits for, so it is not enabled.',
    });
    const failed = new logs.MetricFilter(this, 'FailedWrites', {
      logGroup: props.logGroup,
      filterPattern: logs.FilterPattern.stringValue('$.message', '=', `${FAILED_WRITE}*`),
      metricNamespace: props.metricsNamespace,
      metricName: 'CallStateWriteFailures',
      metricValue: '1',
      defaultValue: 0,
    });
    this.alarm(
      'ThrottledWritesAlarm',
      this.table.metric('WriteThrottleEvents', { period: DEFAULT_ALARM_PERIOD, statistic: 'Sum' }),
      'Writes to the call state table were throttled: questions, answers, cancellations or stream logs may be ' +
        'late or lost (a call then ends with an error the model sees).',
      props,
    );
    this.alarm(
      'FailedWritesAlarm',
      failed.metric({ period: DEFAULT_ALARM_PERIOD, statistic: 'Sum' }),
      'The MCP function could not write a question, an answer, a cancellation or a stream log to the call state ' +
        `table (see its "${FAILED_WRITE}" log lines).`,
      props,
    );
  }

  /**
   * Least privilege: the three item operations of the call state, on this table only (no delete: a question is
   * closed and the TTL removes it). The logs of cut streams (docs/streaming.md) need only two of them: they are put
   * and read, never updated.
   */
  grantReadWrite(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
      resourceArns: [this.table.tableArn],
    });
  }

  /** @deprecated Renamed `grantReadWrite` (the same grant). */
  grantQuestions(grantee: iam.IGrantable): iam.Grant {
    return this.grantReadWrite(grantee);
  }

  /** The environment the MCP function finds the table in. */
  get environment(): Record<string, string> {
    return { MCP_CALL_STATE_TABLE: this.table.tableName };
  }

  private alarm(
    id: string,
    metric: cloudwatch.IMetric,
    description: string,
    props: CallStateTableProps,
  ): void {
    this.alarms.push(failureCountAlarm(this, id, metric, description, props.alarmActions));
  }
}

// The names of the previous release, kept so an app written against it compiles unchanged (docs/upgrading.md).

/** @deprecated Renamed `CallStateTable` (the same construct: keep its id to keep its table). */
export class AskRendezvous extends CallStateTable {}

/** @deprecated Renamed `CallStateTableProps`. */
export type AskRendezvousProps = CallStateTableProps;
