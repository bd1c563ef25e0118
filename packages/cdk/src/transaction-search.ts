import { Aws, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as xray from 'aws-cdk-lib/aws-xray';
import { Construct } from 'constructs';

export interface TransactionSearchProps {
  /**
   * The share of spans X-Ray indexes as trace summaries (its trace map and trace queries), 0 to 100. Every span is
   * kept in the `aws/spans` log group whatever this says; the first 1% is free.
   * @default 1
   */
  readonly indexingPercentage?: number;
}

/**
 * CloudWatch Transaction Search, which X-Ray's OTLP endpoint needs before it takes spans: X-Ray may write to the
 * `aws/spans` and `/aws/application-signals/data` log groups (of this account and region only), and its segment
 * destination becomes CloudWatch Logs. It is one setting per account and region: enable it in one stack only, and
 * not where it is already on (the console's "X-Ray traces → Transaction Search" says), or the deploy fails. Both
 * resources outlive the stack (other workloads' spans may depend on them): turn it off in the console.
 */
export class TransactionSearch extends Construct {
  constructor(scope: Construct, id: string, props: TransactionSearchProps = {}) {
    super(scope, id);
    const indexingPercentage = props.indexingPercentage ?? 1;
    if (!Token.isUnresolved(indexingPercentage) && !(indexingPercentage >= 0 && indexingPercentage <= 100))
      throw new Error(
        `TransactionSearch: indexingPercentage must be from 0 to 100 (got ${indexingPercentage})`,
      );
    const logGroup = (name: string) =>
      `arn:${Aws.PARTITION}:logs:${Aws.REGION}:${Aws.ACCOUNT_ID}:log-group:${name}:*`;
    const policy = new logs.CfnResourcePolicy(this, 'SpansPolicy', {
      policyName: `TransactionSearchAccess-${Aws.REGION}`,
      policyDocument: Stack.of(this).toJsonString({
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'TransactionSearchXRayAccess',
            Effect: 'Allow',
            Principal: { Service: 'xray.amazonaws.com' },
            Action: 'logs:PutLogEvents',
            Resource: [logGroup('aws/spans'), logGroup('/aws/application-signals/data')],
            // Only X-Ray acting for this account, in this region: no confused deputy.
            Condition: {
              ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:xray:${Aws.REGION}:${Aws.ACCOUNT_ID}:*` },
              StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
            },
          },
        ],
      }),
    });
    const config = new xray.CfnTransactionSearchConfig(this, 'Config', { indexingPercentage });
    config.addDependency(policy);
    // Account-wide: other workloads' spans depend on them, so removing the stack (or the setting) leaves both.
    policy.applyRemovalPolicy(RemovalPolicy.RETAIN);
    config.applyRemovalPolicy(RemovalPolicy.RETAIN);
  }
}
