/**
 * `npm start`: the MCP function's very handler behind a local HTTP server on 127.0.0.1, configured through the same
 * environment variables as in Lambda, with local-friendly defaults (loopback Host and Origin allow-lists). The port
 * is taken first; start-up problems (a busy port, an invalid setting) print one line on stderr and exit with 1.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  Defaults,
  jsonLogger,
  loadConfig,
  loadLogLevel,
  type StreamingEvent,
  type StreamingHandler,
} from '@mcp-lambda/server';
import {
  LOCAL_S3_CREDENTIALS,
  startLocalAuthorization,
  startLocalLambda,
  startLocalS3,
  startLocalServer,
  type InvokedHandler,
  type LambdaHttpHandler,
  type LocalLambda,
  type LocalS3,
} from '@mcp-lambda/dev';

const env = process.env;
const log = (message: string, fields: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level: 'INFO', message, ...fields }));

/** Stops start-up with one line saying what to do, and no stack trace. */
function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

/** A port number from the environment: 0 to 65535 (0 lets the system choose). */
function portFrom(name: string, fallback: number): number {
  const raw = env[name];
  const port = raw === undefined || raw === '' ? fallback : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`${name} must be an integer from 0 to 65535 (got ${JSON.stringify(raw)})`);
  return port;
}

const inUse = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE';

const port = portFrom('PORT', Defaults.localPort);
const s3Port = portFrom('LOCAL_S3_PORT', 0);
// LOCAL_API picks the API the local server stands in for, as `-c api=…` does for a deployment: `http` (the default)
// answers each request at once; `rest-streaming` streams the answer, so progress arrives while a tool runs.
const api = env.LOCAL_API || 'http';
if (api !== 'http' && api !== 'rest-streaming')
  fail(`LOCAL_API must be "http" or "rest-streaming" (got ${JSON.stringify(env.LOCAL_API)})`);
// MCP_AUTH_MODE=oauth without an issuer of your own: the authorization bridge and an embedded OpenID provider
// serve the whole sign-in flow on this machine (docs/authorization.md), in front of the HTTP API.
const withLocalAuthorization = env.MCP_AUTH_MODE?.trim() === 'oauth' && !env.MCP_AUTH_ISSUER?.trim();
if (withLocalAuthorization && api !== 'http')
  fail(
    'LOCAL_API=rest-streaming runs without the local authorization bridge: set MCP_AUTH_ISSUER to an issuer of ' +
      'your own, or leave MCP_AUTH_MODE unset',
  );
// Local defaults: only loopback names may reach the server (DNS-rebinding guard), and only local pages may call it.
env.MCP_ALLOWED_HOSTS ??= '127.0.0.1:*,localhost:*,[::1]:*';
env.MCP_ALLOWED_ORIGINS ??= 'http://localhost:*,http://127.0.0.1:*,http://[::1]:*';
// Handshake-era sessions need a key: a fresh one per run unless one is given (sessions then end with the process,
// and clients initialize again, as they do after a key rotation).
if (!env.MCP_SESSION_SECRET && !env.MCP_SESSION_SECRET_ARN)
  env.MCP_SESSION_SECRET = randomBytes(32).toString('base64url');

let localS3: LocalS3 | undefined;

/**
 * Large outputs: unless OFFLOAD_BUCKET names a bucket of your own, an embedded S3-compatible server on loopback
 * keeps them in .local/s3 (git-ignored; LOCAL_S3_DIR names another folder), so resource links work offline; objects older than OFFLOAD_TTL_DAYS are
 * deleted there, as the bucket's lifecycle rule does in AWS. Set before the function reads its configuration.
 */
async function startEmbeddedS3(ttlDays: number): Promise<void> {
  const directory = env.LOCAL_S3_DIR || fileURLToPath(new URL('../../.local/s3', import.meta.url));
  await mkdir(directory, { recursive: true });
  try {
    localS3 = await startLocalS3({
      directory,
      bucket: 'mcp-outputs-local',
      port: s3Port,
      expireAfterMs: ttlDays * 86_400_000,
    });
  } catch (error) {
    fail(
      inUse(error)
        ? `LOCAL_S3_PORT ${s3Port} on 127.0.0.1 is already in use; choose another one, or 0 for any free port`
        : `cannot start the local S3 server: ${(error as Error).message}`,
    );
  }
  env.OFFLOAD_BUCKET = localS3.bucket;
  env.S3_ENDPOINT = localS3.endpoint;
  env.AWS_ACCESS_KEY_ID = LOCAL_S3_CREDENTIALS.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = LOCAL_S3_CREDENTIALS.secretAccessKey;
  delete env.AWS_SESSION_TOKEN;
  env.AWS_REGION ??= 'us-east-1';
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  log('local S3 listening', { endpoint: localS3.endpoint, directory });
}

let localLambda: LocalLambda | undefined;

/**
 * Stored outputs are read back by the companion resources function, locally as when deployed: it runs in this
 * process behind a loopback stand-in for the Lambda Invoke API, unless RESOURCES_FUNCTION_NAME names a real one.
 * It is loaded on its first invocation, when the environment is complete.
 */
async function startLocalCompanion(): Promise<void> {
  const companion: InvokedHandler = async (event, context) =>
    (await import('../companion/handler.ts')).handler(event, context);
  // The companion's time limit, as deployed: its reads end before it, and a read of a storage that never answers is
  // told "could not be read right now" rather than running into the tool's budget.
  localLambda = await startLocalLambda({
    functions: { 'mcp-resources-local': companion },
    timeoutMs: Defaults.resourcesFunctionTimeoutSeconds * 1000,
  });
  env.RESOURCES_FUNCTION_NAME = 'mcp-resources-local';
  env.AWS_ENDPOINT_URL_LAMBDA = localLambda.endpoint;
}

/** Checks the configuration and starts the embedded S3 and the companion when needed, before a function loads. */
async function prepare(): Promise<void> {
  let ttlDays: number;
  try {
    ttlDays = loadConfig().offload.ttlDays;
  } catch (error) {
    fail((error as Error).message);
  }
  if (!env.OFFLOAD_BUCKET) await startEmbeddedS3(ttlDays);
  if (!env.RESOURCES_FUNCTION_NAME) await startLocalCompanion();
}

/** The MCP function's buffered handler (HTTP API), loaded once the environment is complete. */
async function loadFunction(): Promise<LambdaHttpHandler> {
  await prepare();
  return (await import('../mcp/handler.ts')).handler;
}

/** The MCP function's streaming handler (REST API with response streaming), loaded likewise. */
async function loadStreamingFunction(): Promise<StreamingHandler<StreamingEvent>> {
  await prepare();
  return (await import('../mcp/streaming.ts')).streamingHandler;
}
let local: { url: string; close(): Promise<void> };
try {
  if (withLocalAuthorization) {
    const authorization = await startLocalAuthorization({
      port,
      log: jsonLogger({ serviceName: 'mcp-authorization-bridge', level: loadLogLevel(env) }),
      mcpHandler: async ({ issuer, resource, scope }) => {
        env.MCP_AUTH_ISSUER = issuer;
        env.MCP_AUTH_RESOURCE = resource;
        env.MCP_AUTH_REQUIRED_SCOPES ??= scope;
        return loadFunction();
      },
    });
    local = { url: authorization.issuer, close: authorization.close };
    const { user } = authorization.upstream;
    log('local authorization: sign in at the embedded provider as the development user', {
      authorizationServer: authorization.issuer,
      signInProvider: authorization.upstream.issuer,
      email: user.email,
      password: user.password,
    });
  } else if (api === 'rest-streaming') {
    // The port first, so a busy one stops start-up before anything else has started; requests that arrive
    // before the function is loaded wait for it.
    let loaded!: (handler: StreamingHandler<StreamingEvent>) => void;
    const ready = new Promise<StreamingHandler<StreamingEvent>>((resolve) => (loaded = resolve));
    local = await startLocalServer({
      streamingHandler: async (event, stream, context) => (await ready)(event, stream, context),
      port,
    });
    loaded(await loadStreamingFunction());
  } else {
    let loaded!: (handler: LambdaHttpHandler) => void;
    const ready = new Promise<LambdaHttpHandler>((resolve) => (loaded = resolve));
    local = await startLocalServer({
      handler: async (event, context) => (await ready)(event, context),
      port,
    });
    loaded(await loadFunction());
  }
} catch (error) {
  fail(
    inUse(error)
      ? `port ${port} on 127.0.0.1 is already in use (another npm start?); stop that server or set PORT`
      : `cannot start: ${(error as Error).message}`,
  );
}
log('listening', { url: `${local.url}/mcp`, api });

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log('stopping', { signal });
  await local.close();
  await localLambda?.close();
  await localS3?.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
