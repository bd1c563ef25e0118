/**
 * Reads a secret string from AWS Secrets Manager (the sealing secret, the upstream client secret), bounded by the
 * caller's signal. The SDK is loaded on first use and is not bundled (the Lambda runtime provides it).
 */
type Sdk = typeof import('@aws-sdk/client-secrets-manager');

let sdk: Promise<Sdk> | undefined;
let client: Promise<InstanceType<Sdk['SecretsManagerClient']>> | undefined;

export type SecretReader = (arn: string, signal: AbortSignal) => Promise<string>;

export const readSecretsManager: SecretReader = async (arn, signal) => {
  const { GetSecretValueCommand, SecretsManagerClient } = await (sdk ??=
    import('@aws-sdk/client-secrets-manager'));
  client ??= Promise.resolve(new SecretsManagerClient({ maxAttempts: 2 }));
  const out = await (
    await client
  ).send(new GetSecretValueCommand({ SecretId: arn }), { abortSignal: signal });
  if (!out.SecretString) throw new Error('The secret has no string value');
  return out.SecretString;
};
