import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { OutputBucket, type OutputBucketProps } from '../../../src/output-bucket.ts';
import { newStack } from '../../../src/testing/synth.ts';
import { only } from '../../../src/testing/template.ts';

/** An OutputBucket in a fresh stack, and its template. */
function build(props: OutputBucketProps = {}, grant?: (bucket: OutputBucket, role: iam.Role) => void) {
  const stack = newStack();
  const bucket = new OutputBucket(stack, 'Outputs', props);
  let role: iam.Role | undefined;
  if (grant) {
    role = new iam.Role(stack, 'Reader', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    grant(bucket, role);
  }
  const template = Template.fromStack(stack);
  const [bucketId, resource] = only(template, 'AWS::S3::Bucket');
  return { stack, bucket, template, bucketId, resource };
}

const bucketArn = (bucketId: string) => ({ 'Fn::GetAtt': [bucketId, 'Arn'] });

describe('OutputBucket', () => {
  it('is an s3.Bucket, so the bucket API (bucketName, grants, metrics) is the construct’s own', () => {
    const { bucket, stack, bucketId } = build();
    expect(bucket).toBeInstanceOf(s3.Bucket);
    expect(stack.resolve(bucket.bucketName)).toEqual({ Ref: bucketId });
  });

  it('encrypts objects, blocks every kind of public access and disables ACLs', () => {
    expect(build().resource.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
  });

  it('denies every request made without TLS, or with TLS older than 1.2', () => {
    const { template, bucketId } = build();
    const [, policy] = only(template, 'AWS::S3::BucketPolicy');
    const denies = (policy.Properties.PolicyDocument.Statement as Record<string, any>[]).filter(
      (s) => s.Effect === 'Deny',
    );
    const arn = bucketArn(bucketId);
    const everything = [arn, { 'Fn::Join': ['', [arn, '/*']] }];
    expect(denies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Resource: everything,
        }),
        expect.objectContaining({
          Action: 's3:*',
          Principal: { AWS: '*' },
          Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
          Resource: everything,
        }),
      ]),
    );
  });

  it('expires stored outputs under outputs/ after 7 days and cleans up unfinished uploads', () => {
    const { resource, bucket } = build();
    expect(resource.Properties.LifecycleConfiguration.Rules).toEqual([
      {
        Id: 'expire-stored-outputs',
        Status: 'Enabled',
        Prefix: 'outputs/',
        ExpirationInDays: 7,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
      },
    ]);
    expect(resource.Properties.VersioningConfiguration).toBeUndefined();
    expect([bucket.prefix, bucket.ttlDays]).toEqual(['outputs/', 7]);
  });

  it('prefix and ttlDays set the lifecycle rule', () => {
    const { resource, bucket } = build({ prefix: 'large/', ttlDays: 2 });
    expect(resource.Properties.LifecycleConfiguration.Rules).toEqual([
      expect.objectContaining({ Prefix: 'large/', ExpirationInDays: 2 }),
    ]);
    expect([bucket.prefix, bucket.ttlDays]).toEqual(['large/', 2]);
  });

  it('is emptied and deleted with the stack by default (outputs are disposable copies)', () => {
    const { resource, template } = build();
    expect(resource.DeletionPolicy).toBe('Delete');
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 1);
  });

  it('RETAIN keeps the bucket and adds no auto-delete provider', () => {
    const { resource, template } = build({ removalPolicy: RemovalPolicy.RETAIN });
    expect(resource.DeletionPolicy).toBe('Retain');
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  it('bucketName and server access logs pass through to the bucket', () => {
    const stack = newStack();
    const logs = new s3.Bucket(stack, 'AccessLogs');
    new OutputBucket(stack, 'Outputs', {
      bucketName: 'acme-mcp-outputs',
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'outputs-bucket/',
    });
    Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', {
      BucketName: 'acme-mcp-outputs',
      LoggingConfiguration: { LogFilePrefix: 'outputs-bucket/' },
    });
  });

  it.each([
    ['grantStoreOutputs', ['s3:DeleteObject', 's3:PutObject']],
    ['grantReadOutputs', 's3:GetObject'],
  ] as const)('%s allows %s on keys under the prefix and nothing else', (grant, action) => {
    const { template, bucketId } = build({ prefix: 'large/' }, (bucket, role) => bucket[grant](role));
    const [, policy] = only(template, 'AWS::IAM::Policy');
    expect(policy.Properties.PolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: action,
        Resource: { 'Fn::Join': ['', [bucketArn(bucketId), '/large/*']] },
      },
    ]);
  });
});
