/**
 * The AWS services the function reaches, stood in for on loopback by `npm start`: the output bucket and the Lambda
 * Invoke API of its companion. Each sets the environment the function then reads, as the stack sets it when deployed.
 */
import { chmod, mkdir } from 'node:fs/promises';
import { Defaults } from '@mcp-lambda/server/limits';
import { startLocalLambda, type InvokedHandler, type LocalLambda } from '../local/lambda-invoke.ts';
import { randomS3Credentials, startLocalS3, type LocalS3 } from '../local/s3.ts';
import { busyPort, log, step } from './start-up.ts';

type Env = Record<string, string | undefined>;

/**
 * Large outputs: unless OFFLOAD_BUCKET names a bucket of your own, an embedded S3-compatible server on loopback
 * keeps them in `directory` (the app's .local/s3, git-ignored, unless LOCAL_S3_DIR names another folder), so
 * resource links work offline; objects older than OFFLOAD_TTL_DAYS are deleted there, as the bucket's lifecycle rule
 * does in AWS. Started before the function reads its configuration.
 */
export async function startEmbeddedS3(
  env: Env,
  options: { directory: string; port: number; ttlDays: number },
): Promise<LocalS3> {
  const { directory, port } = options;
  // Stored outputs are private: the folder is its user's alone, as the bucket is its account's.
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  const s3 = await step(
    () =>
      startLocalS3({
        directory,
        bucket: 'mcp-outputs-local',
        port,
        expireAfterMs: options.ttlDays * 86_400_000,
        // A key pair of this run's own: another user of the machine reaches the port, never the outputs.
        credentials: randomS3Credentials(),
      }),
    busyPort('LOCAL_S3_PORT', port),
    'the local S3 server',
  );
  env.OFFLOAD_BUCKET = s3.bucket;
  env.S3_ENDPOINT = s3.endpoint;
  env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
  delete env.AWS_SESSION_TOKEN;
  env.AWS_REGION ??= 'us-east-1';
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  log('local S3 listening', { endpoint: s3.endpoint, directory });
  return s3;
}

/**
 * Stored outputs are read back by the companion resources function, locally as when deployed: it runs in this
 * process behind a loopback stand-in for the Lambda Invoke API, unless RESOURCES_FUNCTION_NAME names a real one.
 * `companion` loads it on its first invocation, when the environment is complete.
 */
export async function startLocalCompanion(
  env: Env,
  options: { companion: InvokedHandler; port: number },
): Promise<LocalLambda> {
  // The companion's time limit, as deployed: its reads end before it, and a read of a storage that never answers is
  // told "could not be read right now" rather than running into the tool's budget.
  const lambda = await step(
    () =>
      startLocalLambda({
        functions: { 'mcp-resources-local': options.companion },
        port: options.port,
        timeoutMs: Defaults.resourcesFunctionTimeoutSeconds * 1000,
      }),
    busyPort('LOCAL_LAMBDA_PORT', options.port),
    'the local Lambda stand-in',
  );
  env.RESOURCES_FUNCTION_NAME = 'mcp-resources-local';
  env.AWS_ENDPOINT_URL_LAMBDA = lambda.endpoint;
  return lambda;
}
