import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { Defaults, Ranges } from '@mcp-lambda/server/limits';
import { TaskTableAttributes } from '@mcp-lambda/server/aws';
import { FUNCTION_ENTRIES } from './bundling.ts';
import { failureCountAlarm } from './alarms.ts';
import { DEFAULT_ALARM_PERIOD, DEFAULT_REMOVAL_POLICY, DEFAULT_WORKER_TIMEOUT } from './defaults.ts';
import { BundledFunction, type FunctionLogLevel } from './bundled-function.ts';
import type { OutputBucket } from './output-bucket.ts';

/** Properties of a {@link TaskWorker}. */
export interface TaskWorkerProps {
  /** The bucket of stored outputs: the worker may store under its prefix, as the MCP function may. Required. */
  readonly outputs: OutputBucket;
  /**
   * Environment of the worker (the MCP function's settings, so its tools see what they see there); the table and
   * the bucket are added.
   * @default - none
   */
  readonly environment?: Readonly<Record<string, string>>;
  /**
   * Entry file of the worker function, relative to the project root.
   * @default 'functions/worker/handler.ts' (`FUNCTION_ENTRIES.worker`)
   */
  readonly entry?: string;
  /**
   * Memory of the worker function in MB.
   * @default 1024 (`Defaults.workerMemoryMb` in packages/server/src/limits.ts)
   */
  readonly memorySize?: number;
  /**
   * Time limit of one task run (the worker function's timeout); at most 15 minutes, Lambda's maximum.
   * @default Duration.minutes(15) (`Defaults.workerFunctionTimeoutSeconds`)
   */
  readonly timeout?: Duration;
  /**
   * Shell commands run in the project root before the worker is bundled.
   * @default - none
   */
  readonly beforeBundling?: readonly string[];
  /**
   * Lowest log level the worker writes.
   * @default 'INFO' (see BundledFunction)
   */
  readonly logLevel?: FunctionLogLevel;
  /**
   * Retention of the worker's log group.
   * @default logs.RetentionDays.ONE_MONTH (see BundledFunction)
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * What `cdk destroy` does with the task table and the worker's log group. DESTROY: task records live an hour
   * or so and mean nothing once the endpoint is gone.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Actions run when a worker alarm changes state (e.g. an SNS topic).
   * @default - none
   */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
  /**
   * Lambda active tracing (X-Ray): a run joins the trace of the call that started it.
   * @default - off (Lambda's PassThrough)
   */
  readonly tracing?: lambda.Tracing;
}

/**
 * Where tasks run and live (the tasks extension, docs/tasks.md): a DynamoDB table of task records (conditional
 * writes, strongly consistent reads, TTL on `expiresAt`), the worker function that runs one task per asynchronous
 * invocation for up to 15 minutes, and what happens when a run fails outside the task's own error handling: no
 * retry (a tool must not run twice), a start that waited more than a minute is dropped, and the invocation
 * record goes to an encrypted queue with an alarm. The task's lease turns such a task `failed` for the client.
 */
export class TaskWorker extends Construct {
  /** The task records. */
  readonly table: dynamodb.Table;
  /** The worker function (a `BundledFunction`). */
  readonly workerFunction: BundledFunction;
  /** Invocation records of runs that failed outside the task (crash, time limit, dropped start). */
  readonly failures: sqs.Queue;
  /** The time limit of one run. */
  readonly timeout: Duration;
  /** The worker's own alarms (failed runs recorded, starts dropped). */
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: TaskWorkerProps) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? DEFAULT_REMOVAL_POLICY;
    this.timeout = props.timeout ?? DEFAULT_WORKER_TIMEOUT;
    if (this.timeout.toSeconds() > Defaults.workerFunctionTimeoutSeconds || this.timeout.toSeconds() < 1)
      throw new Error('TaskWorker: timeout must be from 1 second to 15 minutes');
    const memorySize = props.memorySize ?? Defaults.workerMemoryMb;
    if (!Number.isInteger(memorySize) || memorySize < Ranges.memoryMb.min || memorySize > Ranges.memoryMb.max)
      throw new Error(
        `TaskWorker: memorySize must be an integer from ${Ranges.memoryMb.min} to ${Ranges.memoryMb.max} MB`,
      );

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TaskTableAttributes.partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TaskTableAttributes.ttl,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy,
    });
    Validations.of(this.table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason:
        'Task records are short-lived (each expires with its ttlMs, an hour by default) and are deleted by the TTL ' +
        'attribute; a point-in-time restore would only bring back expired tasks, so it is not enabled.',
    });

    this.failures = new sqs.Queue(this, 'Failures', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.failures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself the dead-letter destination of the worker's failed asynchronous invocations; nothing " +
        'consumes it automatically, an operator reads it when its alarm fires, so it needs no queue of its own.',
    });

    this.workerFunction = new BundledFunction(this, 'Function', {
      entry: props.entry ?? FUNCTION_ENTRIES.worker,
      description:
        'Task worker of the MCP function: runs one task (tasks extension) per asynchronous invocation',
      memorySize,
      timeout: this.timeout,
      serviceName: `${props.environment?.MCP_SERVER_NAME ?? Defaults.serverName}-worker`,
      ...(props.beforeBundling ? { beforeBundling: props.beforeBundling } : {}),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      logRemovalPolicy: removalPolicy,
      ...(props.tracing ? { tracing: props.tracing } : {}),
      environment: {
        ...props.environment,
        OFFLOAD_BUCKET: props.outputs.bucketName,
        OFFLOAD_PREFIX: props.outputs.prefix,
        OFFLOAD_TTL_DAYS: String(props.outputs.ttlDays),
        TASKS_TABLE: this.table.tableName,
      },
    });
    this.workerFunction.configureAsyncInvoke({
      retryAttempts: 0,
      maxEventAge: Duration.seconds(60),
      onFailure: new SqsDestination(this.failures),
    });
    this.grantRecords(this.workerFunction);
    props.outputs.grantStoreOutputs(this.workerFunction);
    this.watchFailures(props);
  }

  /** Alarms on runs that failed outside the task and on starts dropped before a run. */
  private watchFailures(props: TaskWorkerProps): void {
    this.alarm(
      'FailedRunsAlarm',
      this.failures.metricApproximateNumberOfMessagesVisible({
        period: DEFAULT_ALARM_PERIOD,
        statistic: 'Maximum',
      }),
      'A task run failed outside the task (crash, time limit or a start dropped): the failure queue holds its invocation record.',
      props,
    );
    this.alarm(
      'DroppedStartsAlarm',
      this.workerFunction.metric('AsyncEventsDropped', {
        period: DEFAULT_ALARM_PERIOD,
        statistic: 'Sum',
      }),
      'Task starts were dropped before the worker ran them (throttled for over a minute): raise its concurrency.',
      props,
    );
  }

  /** Allows `grantee` to read and conditionally write task records: GetItem and PutItem on the table, nothing else. */
  grantRecords(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
      resourceArns: [this.table.tableArn],
    });
  }

  /** Allows `grantee` to start runs: `lambda:InvokeFunction` on exactly the worker function's ARN. */
  grantStart(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: ['lambda:InvokeFunction'],
      resourceArns: [this.workerFunction.functionArn],
    });
  }

  private alarm(id: string, metric: cloudwatch.IMetric, description: string, props: TaskWorkerProps): void {
    this.alarms.push(failureCountAlarm(this, id, metric, description, props.alarmActions));
  }
}
