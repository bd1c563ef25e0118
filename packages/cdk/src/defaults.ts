/**
 * The template's defaults (`packages/server/src/limits.ts`, the one home of every limit and default) in the types the CDK constructs
 * take. The construct that owns a setting reads its default from here; constructs that only pass a setting on leave
 * it `undefined`, so each default is applied once.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Defaults } from '@mcp-lambda/server/limits';

/** `destroy` or `retain`, as the `removalPolicy` context value and `Defaults.removalPolicy` spell it. */
export type RemovalPolicyName = 'destroy' | 'retain';

/** The CDK removal policy a name stands for. */
export function removalPolicyNamed(name: RemovalPolicyName): RemovalPolicy {
  return name === 'retain' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
}

/** Whether a number of days is a retention CloudWatch Logs offers (1, 3, 5, 7, 14, 30, 60, 90, 180, 365, …). */
export function isLogRetention(days: number): days is RetentionDays {
  return Object.values(RetentionDays).includes(days);
}

function logRetention(days: number): RetentionDays {
  if (!isLogRetention(days)) throw new Error(`${days} days is not a CloudWatch Logs retention`);
  return days;
}

/** What `cdk destroy` does with the bucket, the log groups and the user pool. */
export const DEFAULT_REMOVAL_POLICY = removalPolicyNamed(Defaults.removalPolicy);
/** Retention of every log group (functions and API access logs). */
export const DEFAULT_LOG_RETENTION = logRetention(Defaults.logRetentionDays);
/** Time limit of the MCP function. */
export const DEFAULT_MCP_TIMEOUT = Duration.seconds(Defaults.mcpFunctionTimeoutSeconds);
/** Time limit of the MCP function behind a streaming REST API. */
export const DEFAULT_STREAMING_MCP_TIMEOUT = Duration.seconds(Defaults.streamingFunctionTimeoutSeconds);
/** Time limit of the companion resources function. */
export const DEFAULT_RESOURCES_TIMEOUT = Duration.seconds(Defaults.resourcesFunctionTimeoutSeconds);
/** Length of one alarm evaluation period. */
export const DEFAULT_ALARM_PERIOD = Duration.minutes(Defaults.alarmPeriodMinutes);
/** Time limit of one task run (the worker function). */
export const DEFAULT_WORKER_TIMEOUT = Duration.seconds(Defaults.workerFunctionTimeoutSeconds);
