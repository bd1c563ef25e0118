/**
 * `npm start`: the MCP function's very handler behind a local HTTP server on 127.0.0.1, configured through the same
 * environment variables as in Lambda, with local-friendly defaults (loopback Host and Origin allow-lists).
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Logger } from '@aws-lambda-powertools/logger';
import {
  Defaults,
  LOCAL_S3_CREDENTIALS,
  startLocalAuthorization,
  startLocalLambda,
  startLocalS3,
  startLocalServer,
  type LocalLambda,
  type LocalS3,
} from '../../src/index.ts';

const env = process.env;
const port = Number(env.PORT ?? Defaults.localPort);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer from 0 to 65535 (got ${env.PORT})`);
  process.exit(1);
}
// LOCAL_API picks the API the local server stands in for, as `-c api=…` does for a deployment: `http` (the default)
// answers each request at once; `rest-streaming` streams the answer, so progress arrives while a tool runs.
const api = env.LOCAL_API ?? 'http';
if (api !== 'http' && api !== 'rest-streaming') {
  console.error(`LOCAL_API must be "http" or "rest-streaming" (got ${env.LOCAL_API})`);
  process.exit(1);
}
// MCP_AUTH_MODE=oauth without an issuer of your own: the authorization bridge and an embedded OpenID provider
// serve the whole sign-in flow on this machine (README "Authorization", local flow), in front of the HTTP API.
const withLocalAuthorization = env.MCP_AUTH_MODE?.trim() === 'oauth' && !env.MCP_AUTH_ISSUER?.trim();
if (withLocalAuthorization && api !== 'http') {
  console.error(
    'LOCAL_API=rest-streaming runs without the local authorization bridge: set MCP_AUTH_ISSUER to an issuer of ' +
      'your own, or leave MCP_AUTH_MODE unset',
  );
  process.exit(1);
}
// Local defaults: only loopback names may reach the server (DNS-rebinding guard), and only local pages may call it.
env.MCP_ALLOWED_HOSTS ??= '127.0.0.1:*,localhost:*,[::1]:*';
env.MCP_ALLOWED_ORIGINS ??= 'http://localhost:*,http://127.0.0.1:*,http://[::1]:*';
env.POWERTOOLS_DEV ??= 'false';

// Large outputs: unless OFFLOAD_BUCKET names a bucket of your own, an embedded S3-compatible server on loopback
// keeps them in .local/s3 (git-ignored), so resource links work offline. Set before the function reads its config.
let localS3: LocalS3 | undefined;
if (!env.OFFLOAD_BUCKET) {
  const directory = fileURLToPath(new URL('../../.local/s3', import.meta.url));
  await mkdir(directory, { recursive: true });
  localS3 = await startLocalS3({ directory, bucket: 'mcp-outputs-local' });
  env.OFFLOAD_BUCKET = localS3.bucket;
  env.S3_ENDPOINT = localS3.endpoint;
  env.AWS_ACCESS_KEY_ID = LOCAL_S3_CREDENTIALS.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = LOCAL_S3_CREDENTIALS.secretAccessKey;
  delete env.AWS_SESSION_TOKEN;
  env.AWS_REGION ??= 'us-east-1';
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  console.log(
    JSON.stringify({ level: 'INFO', message: 'local S3 listening', endpoint: localS3.endpoint, directory }),
  );
}

// Stored outputs are read back by the companion resources function, locally as when deployed: it runs in this
// process behind a loopback stand-in for the Lambda Invoke API, unless RESOURCES_FUNCTION_NAME names a real one.
// It is loaded on its first invocation, when the environment is complete (the local authorization sets some).
let localLambda: LocalLambda | undefined;
if (!env.RESOURCES_FUNCTION_NAME) {
  const companion = async (event: unknown) => (await import('../resources/handler.ts')).handler(event);
  localLambda = await startLocalLambda({ functions: { 'mcp-resources-local': companion } });
  env.RESOURCES_FUNCTION_NAME = 'mcp-resources-local';
  env.AWS_ENDPOINT_URL_LAMBDA = localLambda.endpoint;
}

let local: { url: string; close(): Promise<void> };
if (withLocalAuthorization) {
  const authorization = await startLocalAuthorization({
    port,
    log: new Logger({ serviceName: 'mcp-authorization-bridge' }),
    mcpHandler: async ({ issuer, resource, scope }) => {
      env.MCP_AUTH_ISSUER = issuer;
      env.MCP_AUTH_RESOURCE = resource;
      env.MCP_AUTH_REQUIRED_SCOPES ??= scope;
      return (await import('../mcp/handler.ts')).handler;
    },
  });
  local = { url: authorization.issuer, close: authorization.close };
  const { user } = authorization.upstream;
  console.log(
    JSON.stringify({
      level: 'INFO',
      message: 'local authorization: sign in at the embedded provider as the development user',
      authorizationServer: authorization.issuer,
      signInProvider: authorization.upstream.issuer,
      email: user.email,
      password: user.password,
    }),
  );
} else {
  local = await startLocalServer({
    ...(api === 'rest-streaming'
      ? { streamingHandler: (await import('../mcp/streaming.ts')).streamingHandler }
      : { handler: (await import('../mcp/handler.ts')).handler }),
    port,
  });
}
console.log(JSON.stringify({ level: 'INFO', message: 'listening', url: `${local.url}/mcp`, api }));

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ level: 'INFO', message: 'stopping', signal }));
  await local.close();
  await localLambda?.close();
  await localS3?.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
