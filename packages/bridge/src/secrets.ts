import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '@mcp-lambda/server/auth';
import { BridgeLimits } from './limits.ts';

/**
 * Reads secret strings from AWS Secrets Manager (the sealing secret, the upstream client secret), bounded by the
 * caller's signal and the bridge's cap on one outbound call. The client is the server package's lazily made one
 * (bounded requests, tracing when asked); the SDK is provided by the Lambda runtime and not bundled.
 */

export type SecretReader = (arn: string, signal: AbortSignal) => Promise<string>;

/** A reader over one Secrets Manager client, made on the first read. */
export function secretsManagerReader(options: AwsClientOptions = {}): SecretReader {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-secrets-manager'),
    (sdk) => new sdk.SecretsManagerClient(awsClientConfig(options, BridgeLimits.outboundTimeoutMs)),
    options.instrument,
  );
  return async (arn, signal) => {
    const { sdk, client } = await load();
    const out = await client.send(new sdk.GetSecretValueCommand({ SecretId: arn }), { abortSignal: signal });
    if (!out.SecretString) throw new Error('The secret has no string value');
    return out.SecretString;
  };
}

/** The default reader (the function's region and role). */
export const readSecretsManager: SecretReader = secretsManagerReader();
