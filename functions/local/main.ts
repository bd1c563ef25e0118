/**
 * `npm start`: the MCP function's very handler behind a local HTTP server on 127.0.0.1, configured through the same
 * environment variables as in Lambda, with local-friendly defaults (loopback Host and Origin allow-lists), and API
 * Gateway's CORS for those origins as the deployed API answers it. The port is taken first; start-up problems (a
 * busy port, an invalid setting) print one line on stderr and exit with 1. Every port it listens on has a setting
 * (settings.ts) and is printed at start-up.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  jsonLogger,
  loadConfig,
  loadLogLevel,
  type Config,
  type StreamingEvent,
  type StreamingHandler,
} from '@mcp-lambda/server/lambda';
import { Defaults } from '@mcp-lambda/server/limits';
import {
  LOCAL_S3_CREDENTIALS,
  startLocalAuthorization,
  startLocalLambda,
  startLocalS3,
  startLocalServer,
  type InvokedHandler,
  type LambdaHttpHandler,
  type LocalAuthorizationUrls,
  type LocalLambda,
  type LocalS3,
} from '@mcp-lambda/dev';
import { localGatewayCors, readLocalSettings, type LocalPorts, type LocalSettings } from './settings.ts';

const env = process.env;
const log = (message: string, fields: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level: 'INFO', message, ...fields }));

/** Stops start-up with one line saying what to do, and no stack trace. */
function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

const inUse = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE';

/** Runs one start-up step; a busy port or any other failure ends start-up with one line. */
async function step<T>(run: () => Promise<T>, busy: string, what: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    fail(inUse(error) ? busy : `cannot start ${what}: ${(error as Error).message}`);
  }
}

const busyPort = (
  name: keyof LocalPorts,
  port: number,
  hint = 'choose another one, or 0 for any free port',
) => `${name} ${port} on 127.0.0.1 is already in use; ${hint}`;

let settings: LocalSettings;
try {
  settings = readLocalSettings(env);
} catch (error) {
  fail((error as Error).message);
}
const { ports, api } = settings;
// Local defaults: only loopback names may reach the server (DNS-rebinding guard), and only local pages may call it.
env.MCP_ALLOWED_HOSTS ??= '127.0.0.1:*,localhost:*,[::1]:*';
env.MCP_ALLOWED_ORIGINS ??= 'http://localhost:*,http://127.0.0.1:*,http://[::1]:*';
// Handshake-era sessions need a key: a fresh one per run unless one is given (sessions then end with the process,
// and clients initialize again, as they do after a key rotation).
if (!env.MCP_SESSION_SECRET && !env.MCP_SESSION_SECRET_ARN)
  env.MCP_SESSION_SECRET = randomBytes(32).toString('base64url');

/** The function's configuration; with local authorization its issuer is known only once the bridge listens. */
function readConfig(): Config {
  try {
    return loadConfig(settings.localAuthorization ? { ...env, MCP_AUTH_MODE: 'none' } : env);
  } catch (error) {
    fail((error as Error).message);
  }
}
const config = readConfig();
const cors = localGatewayCors(api, config, settings.localAuthorization);

let localS3: LocalS3 | undefined;

/**
 * Large outputs: unless OFFLOAD_BUCKET names a bucket of your own, an embedded S3-compatible server on loopback
 * keeps them in .local/s3 (git-ignored; LOCAL_S3_DIR names another folder), so resource links work offline; objects
 * older than OFFLOAD_TTL_DAYS are deleted there, as the bucket's lifecycle rule does in AWS. Set before the function
 * reads its configuration.
 */
async function startEmbeddedS3(): Promise<void> {
  const directory = env.LOCAL_S3_DIR || fileURLToPath(new URL('../../.local/s3', import.meta.url));
  await mkdir(directory, { recursive: true });
  const s3 = await step(
    () =>
      startLocalS3({
        directory,
        bucket: 'mcp-outputs-local',
        port: ports.LOCAL_S3_PORT,
        expireAfterMs: config.offload.ttlDays * 86_400_000,
      }),
    busyPort('LOCAL_S3_PORT', ports.LOCAL_S3_PORT),
    'the local S3 server',
  );
  localS3 = s3;
  env.OFFLOAD_BUCKET = s3.bucket;
  env.S3_ENDPOINT = s3.endpoint;
  env.AWS_ACCESS_KEY_ID = LOCAL_S3_CREDENTIALS.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = LOCAL_S3_CREDENTIALS.secretAccessKey;
  delete env.AWS_SESSION_TOKEN;
  env.AWS_REGION ??= 'us-east-1';
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  log('local S3 listening', { endpoint: s3.endpoint, directory });
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
  const lambda = await step(
    () =>
      startLocalLambda({
        functions: { 'mcp-resources-local': companion },
        port: ports.LOCAL_LAMBDA_PORT,
        timeoutMs: Defaults.resourcesFunctionTimeoutSeconds * 1000,
      }),
    busyPort('LOCAL_LAMBDA_PORT', ports.LOCAL_LAMBDA_PORT),
    'the local Lambda stand-in',
  );
  localLambda = lambda;
  env.RESOURCES_FUNCTION_NAME = 'mcp-resources-local';
  env.AWS_ENDPOINT_URL_LAMBDA = lambda.endpoint;
}

/** Starts the embedded S3 and the companion when needed, before a function loads. */
async function prepare(): Promise<void> {
  if (!env.OFFLOAD_BUCKET) await startEmbeddedS3();
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

/** Which setting names a port that turned out busy (Node's EADDRINUSE error carries the port). */
function busySetting(error: unknown): string {
  const busy = (error as { port?: number }).port;
  if (busy !== undefined && busy === ports.LOCAL_OIDC_PORT && busy !== ports.PORT)
    return busyPort('LOCAL_OIDC_PORT', busy);
  return busyPort('PORT', ports.PORT, 'stop that server (another npm start?) or set PORT');
}

let signInProvider: string | undefined;

/** The function's authorization settings, once the bridge listens: its issuer, and the endpoint as the audience. */
function trustBridge({ issuer, resource, scope }: LocalAuthorizationUrls): void {
  env.MCP_AUTH_ISSUER = issuer;
  env.MCP_AUTH_RESOURCE = resource;
  env.MCP_AUTH_REQUIRED_SCOPES ??= scope;
}

/**
 * The bridge and the embedded OpenID provider in front of the function (MCP_AUTH_MODE=oauth, no issuer), on either
 * API: in front of the streaming REST API the bridge's routes sit beside /mcp, as on the REST API behind a custom
 * domain when deployed, so the issuer is this origin and the audience its /mcp in both.
 */
async function startWithLocalAuthorization(): Promise<{ url: string; close(): Promise<void> }> {
  const authorization = await startLocalAuthorization({
    port: ports.PORT,
    providerPort: ports.LOCAL_OIDC_PORT,
    ...(cors ? { cors } : {}),
    allowLoopbackMetadata: settings.loopbackMetadata,
    log: jsonLogger({ serviceName: 'mcp-authorization-bridge', level: loadLogLevel(env) }),
    ...(api === 'rest-streaming'
      ? {
          mcpStreamingHandler: async (urls) => {
            trustBridge(urls);
            return loadStreamingFunction();
          },
        }
      : {
          mcpHandler: async (urls) => {
            trustBridge(urls);
            return loadFunction();
          },
        }),
  });
  const { user } = authorization.upstream;
  signInProvider = authorization.upstream.issuer;
  log('local authorization: sign in at the embedded provider as the development user', {
    authorizationServer: authorization.issuer,
    signInProvider: authorization.upstream.issuer,
    email: user.email,
    password: user.password,
    state: 'in memory: registrations, sign-ins and tokens end with this process',
    loopbackClientMetadata: settings.loopbackMetadata
      ? 'allowed: serve the document over https, its certificate trusted through NODE_EXTRA_CA_CERTS'
      : 'refused (BRIDGE_CIMD_ALLOW_LOOPBACK=false)',
  });
  return { url: authorization.issuer, close: authorization.close };
}

/**
 * The function behind the local server. The port first, so a busy one stops start-up before anything else has
 * started; requests that arrive before the function is loaded wait for it.
 */
async function startFunction(): Promise<{ url: string; close(): Promise<void> }> {
  if (api === 'rest-streaming') {
    let loaded!: (handler: StreamingHandler<StreamingEvent>) => void;
    const ready = new Promise<StreamingHandler<StreamingEvent>>((resolve) => (loaded = resolve));
    const local = await startLocalServer({
      streamingHandler: async (event, stream, context) => (await ready)(event, stream, context),
      port: ports.PORT,
      ...(cors ? { cors } : {}),
    });
    loaded(await loadStreamingFunction());
    return local;
  }
  let loaded!: (handler: LambdaHttpHandler) => void;
  const ready = new Promise<LambdaHttpHandler>((resolve) => (loaded = resolve));
  const local = await startLocalServer({
    handler: async (event, context) => (await ready)(event, context),
    port: ports.PORT,
    ...(cors ? { cors } : {}),
  });
  loaded(await loadFunction());
  return local;
}

let local: { url: string; close(): Promise<void> };
try {
  local = await (settings.localAuthorization ? startWithLocalAuthorization() : startFunction());
} catch (error) {
  fail(inUse(error) ? busySetting(error) : `cannot start: ${(error as Error).message}`);
}
// Stop handlers first: a script may send SIGTERM as soon as it reads the listening line.
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

const listening = {
  PORT: Number(new URL(local.url).port),
  ...(localS3 ? { LOCAL_S3_PORT: Number(new URL(localS3.endpoint).port) } : {}),
  ...(localLambda ? { LOCAL_LAMBDA_PORT: Number(new URL(localLambda.endpoint).port) } : {}),
  ...(signInProvider ? { LOCAL_OIDC_PORT: Number(new URL(signInProvider).port) } : {}),
};
log('listening', { url: `${local.url}/mcp`, api, ports: listening });
