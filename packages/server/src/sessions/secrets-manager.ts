import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '../aws-client.ts';

/**
 * The session keys kept in AWS Secrets Manager (the deployed stack's `MCP_SESSION_SECRET_ARN`): the secret string,
 * read with the caller's signal (the invocation's deadline). The SDK is imported on first use and is provided by the
 * Lambda runtime, so the bundles do not carry it.
 */
export function secretsManagerReader(
  secretArn: string,
  options: AwsClientOptions = {},
): (signal: AbortSignal) => Promise<string> {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-secrets-manager'),
    (sdk) => new sdk.SecretsManagerClient({ ...awsClientConfig(options, 3_000), maxAttempts: 2 }),
    options.instrument,
  );
  return async (signal) => {
    const { sdk, client } = await load();
    const out = await client.send(new sdk.GetSecretValueCommand({ SecretId: secretArn }), {
      abortSignal: signal,
    });
    if (!out.SecretString) throw new Error('the session secret has no string value');
    return out.SecretString;
  };
}
