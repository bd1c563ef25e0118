import { describe, expect, it } from 'vitest';
import { Aws, AwsReadError, explain } from '../../src/load/stack/aws.ts';
import { stubClients } from './aws-stub.ts';

/** Each AWS call of `npm run load -- --stack`: bounded by its timeout, and a failure said in one line. */

describe('each AWS call', () => {
  it('abandons a call that does not answer within the timeout', async () => {
    const { clients } = stubClients({ 'lambda.GetAccountSettingsCommand': () => new Promise(() => {}) });
    const aws = await Aws.open({ region: 'eu-west-1', clients, timeoutMs: 50 });
    const read = aws.read(
      'lambda',
      new aws.sdk.lambda.GetAccountSettingsCommand({}),
      'lambda:GetAccountSettings',
    );
    await expect(read).rejects.toThrow(
      new AwsReadError('lambda:GetAccountSettings: no answer within 0.05 s'),
    );
  });

  it('says what is wrong with the credentials rather than a permission', () => {
    const error = (name: string, status?: number) =>
      Object.assign(new Error(`${name} happened`), { name, $metadata: { httpStatusCode: status } });
    expect(explain(error('CredentialsProviderError'), 'cloudwatch:GetMetricData')).toMatch(
      /^no AWS credentials for cloudwatch:GetMetricData/,
    );
    expect(explain(error('ExpiredTokenException', 403), 'logs:StartQuery')).toBe(
      'the AWS credentials have expired (logs:StartQuery)',
    );
    expect(explain(error('InvalidClientTokenId', 403), 'lambda:GetAccountSettings')).toBe(
      'the AWS credentials are not valid (lambda:GetAccountSettings: InvalidClientTokenId)',
    );
    expect(explain(error('Throttling', 400), 'cloudformation:DescribeStacks')).toBe(
      'cloudformation:DescribeStacks: Throttling: Throttling happened',
    );
  });
});
