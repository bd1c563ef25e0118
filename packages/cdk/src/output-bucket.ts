import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { Defaults } from '@mcp-lambda/server/limits';
import { DEFAULT_REMOVAL_POLICY } from './defaults.ts';

/**
 * Properties of an {@link OutputBucket}: the `BucketProps` that cannot weaken its protection (name and server access
 * logs, with the S3 defaults), plus the ones below. Encryption, public access, ownership, TLS, versioning and the
 * lifecycle rule are decided by the construct.
 */
export interface OutputBucketProps extends Pick<
  s3.BucketProps,
  'bucketName' | 'serverAccessLogsBucket' | 'serverAccessLogsPrefix'
> {
  /**
   * Key prefix of stored tool outputs (OFFLOAD_PREFIX); grants and the lifecycle rule are scoped to it.
   * @default 'outputs/' (`Defaults.offloadPrefix` in packages/server/src/limits.ts)
   */
  readonly prefix?: string;
  /**
   * Days after which stored outputs expire (OFFLOAD_TTL_DAYS).
   * @default 7 (`Defaults.offloadTtlDays`)
   */
  readonly ttlDays?: number;
  /**
   * What happens to the bucket when the stack is deleted. DESTROY: stored outputs are short-lived copies that the
   * functions can regenerate, so `cdk destroy` empties and deletes the bucket (through CDK's auto-delete custom
   * resource). RETAIN keeps the bucket and its objects.
   * @default RemovalPolicy.DESTROY (`Defaults.removalPolicy`)
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The private bucket that holds large tool outputs until they expire: no public access, ACLs disabled, SSE-S3
 * encryption, TLS 1.2 or newer only, no versions, and a lifecycle rule that deletes outputs after their TTL.
 */
export class OutputBucket extends s3.Bucket {
  /** Key prefix of stored outputs, ending with `/`. */
  readonly prefix: string;
  /** Days an output lives. */
  readonly ttlDays: number;

  constructor(scope: Construct, id: string, props: OutputBucketProps = {}) {
    const {
      prefix = Defaults.offloadPrefix,
      ttlDays = Defaults.offloadTtlDays,
      removalPolicy = DEFAULT_REMOVAL_POLICY,
      ...bucketProps
    } = props;
    super(scope, id, {
      ...bucketProps,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Versions would outlive the lifecycle rule's expiry: an expired output must be gone.
      versioned: false,
      lifecycleRules: [
        {
          id: 'expire-stored-outputs',
          prefix,
          expiration: Duration.days(ttlDays),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy,
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });
    this.prefix = prefix;
    this.ttlDays = ttlDays;

    if (!bucketProps.serverAccessLogsBucket) {
      Validations.of(this).acknowledge({
        id: 'AwsSolutions-S1',
        reason:
          'Only the roles given grantStoreOutputs or grantReadOutputs (the two functions of an McpEndpoint) can read ' +
          'or write the bucket, and every read and write ' +
          'happens inside a logged function invocation. Server access logs would need a second bucket; enable ' +
          'CloudTrail S3 data events on this bucket if an account-level audit trail is required.',
      });
    }
  }

  /**
   * Allows `grantee` to store outputs: `s3:PutObject` on keys under the prefix, and `s3:DeleteObject` there to
   * remove the parts already written of an output whose store failed part-way. Nothing else.
   */
  grantStoreOutputs(grantee: iam.IGrantable): iam.Grant {
    return this.grantUnderPrefix(grantee, ['s3:PutObject', 's3:DeleteObject']);
  }

  /** Allows `grantee` to read stored outputs: `s3:GetObject` on keys under the prefix, nothing else. */
  grantReadOutputs(grantee: iam.IGrantable): iam.Grant {
    return this.grantUnderPrefix(grantee, ['s3:GetObject']);
  }

  private grantUnderPrefix(grantee: iam.IGrantable, actions: string[]): iam.Grant {
    const grant = iam.Grant.addToPrincipal({
      grantee,
      actions,
      resourceArns: [this.arnForObjects(`${this.prefix}*`)],
    });
    const principal = grantee.grantPrincipal;
    if (Construct.isConstruct(principal)) {
      const bucketId = Stack.of(this).getLogicalId(this.node.defaultChild as s3.CfnBucket);
      Validations.of(principal).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${this.prefix}*]`,
        reason:
          `Object keys are generated per output, so ${actions.join(' and ')} ${actions.length > 1 ? 'are' : 'is'} ` +
          `granted on every key under the ` +
          `"${this.prefix}" prefix of the output bucket, and on no other key or bucket.`,
      });
    }
    return grant;
  }
}
