/**
 * `npm start` (`mcp-lambda-dev start`): the app's MCP function, its very handler, behind a local HTTP server on
 * 127.0.0.1, configured through the same environment variables as in Lambda, with local-friendly defaults (loopback
 * Host and Origin allow-lists), and API Gateway's CORS for those origins as the deployed API answers it. The app's
 * entries are loaded from the app's folder (app-entries.ts). The port is taken first; start-up problems (a busy
 * port, an invalid setting) print one line on stderr and exit with 1. Every port it listens on has a setting
 * (local-settings.ts) and is printed at start-up.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  jsonLogger,
  loadConfig,
  loadLogLevel,
  type Config,
  type StreamingEvent,
  type StreamingHandler,
} from '@mcp-lambda/server/lambda';
import { startLocalAuthorization, type LocalAuthorizationUrls } from '../local/authorization.ts';
import { startLocalServer, type LambdaHttpHandler } from '../local/dev-server.ts';
import { localGatewayCors, type GatewayCors } from '../local/gateway-cors.ts';
import type { InvokedHandler, LocalLambda } from '../local/lambda-invoke.ts';
import type { LocalS3 } from '../local/s3.ts';
import { loadCompanionHandler, loadHttpHandler, loadStreamingHandler } from './app-entries.ts';
import { readLocalSettings, type LocalSettings } from './local-settings.ts';
import { busyPort, fail, inUse, log, orFail } from './start-up.ts';
import { startEmbeddedS3, startLocalCompanion } from './stand-ins.ts';

type Env = Record<string, string | undefined>;

/** What `npm start` prints on `--help`. */
export const usage =
  'usage: npm start\n' +
  "  The app's MCP function (functions/mcp/handler.ts) behind a local API Gateway on 127.0.0.1, with the output\n" +
  '  bucket and the companion function stood in for; settings from the environment (PORT, LOCAL_API,\n' +
  '  MCP_AUTH_MODE, ...: README "Local development").';

/** One run: the app it serves, its settings, and the stand-ins it has started (stopped with it). */
interface Run {
  appDir: string;
  env: Env;
  settings: LocalSettings;
  cors: GatewayCors | undefined;
  /** OFFLOAD_TTL_DAYS, which the embedded S3 applies as the bucket's lifecycle rule does. */
  ttlDays: number;
  localS3?: LocalS3;
  localLambda?: LocalLambda;
  /** The embedded OpenID provider's issuer, with local authorization. */
  signInProvider?: string;
}

/** The local defaults, set before the function reads its configuration. */
function setLocalDefaults(env: Env): void {
  // Only loopback names may reach the server (DNS-rebinding guard), and only local pages may call it.
  env.MCP_ALLOWED_HOSTS ??= '127.0.0.1:*,localhost:*,[::1]:*';
  env.MCP_ALLOWED_ORIGINS ??= 'http://localhost:*,http://127.0.0.1:*,http://[::1]:*';
  // Handshake-era sessions need a key: a fresh one per run unless one is given (sessions then end with the process,
  // and clients initialize again, as they do after a key rotation).
  if (!env.MCP_SESSION_SECRET && !env.MCP_SESSION_SECRET_ARN)
    env.MCP_SESSION_SECRET = randomBytes(32).toString('base64url');
}

/** Starts the embedded S3 and the companion when needed, before a function loads. */
async function prepare(run: Run): Promise<void> {
  const { env, appDir, settings } = run;
  if (!env.OFFLOAD_BUCKET)
    run.localS3 = await startEmbeddedS3(env, {
      directory: env.LOCAL_S3_DIR || join(appDir, '.local', 's3'),
      port: settings.ports.LOCAL_S3_PORT,
      ttlDays: run.ttlDays,
    });
  if (!env.RESOURCES_FUNCTION_NAME) {
    const companion: InvokedHandler = async (event, context) =>
      (await loadCompanionHandler(appDir))(event, context);
    run.localLambda = await startLocalCompanion(env, { companion, port: settings.ports.LOCAL_LAMBDA_PORT });
  }
}

/** A handler whose every request first waits `ms` (LOCAL_DELAY_MS), or the handler itself when there is no wait. */
function delayed<A extends unknown[], R>(handler: (...args: A) => Promise<R>, ms: number) {
  if (ms === 0) return handler;
  return async (...args: A): Promise<R> => {
    await sleep(ms);
    return handler(...args);
  };
}

/** The MCP function's buffered handler (HTTP API), loaded once the environment is complete. */
async function loadFunction(run: Run): Promise<LambdaHttpHandler> {
  await prepare(run);
  return delayed(await loadHttpHandler(run.appDir), run.settings.delayMs);
}

/** The MCP function's streaming handler (REST API with response streaming), loaded likewise. */
async function loadStreamingFunction(run: Run): Promise<StreamingHandler<StreamingEvent>> {
  await prepare(run);
  return delayed(await loadStreamingHandler(run.appDir), run.settings.delayMs);
}

/** Which setting names a port that turned out busy (Node's EADDRINUSE error carries the port). */
function busySetting({ settings: { ports } }: Run, error: unknown): string {
  const busy = (error as { port?: number }).port;
  if (busy !== undefined && busy === ports.LOCAL_OIDC_PORT && busy !== ports.PORT)
    return busyPort('LOCAL_OIDC_PORT', busy);
  return busyPort('PORT', ports.PORT, 'stop that server (another npm start?) or set PORT');
}

/** The function's authorization settings, once the bridge listens: its issuer, and the endpoint as the audience. */
function trustBridge(env: Env, { issuer, resource, scope }: LocalAuthorizationUrls): void {
  env.MCP_AUTH_ISSUER = issuer;
  env.MCP_AUTH_RESOURCE = resource;
  env.MCP_AUTH_REQUIRED_SCOPES ??= scope;
}

/**
 * The bridge and the embedded OpenID provider in front of the function (MCP_AUTH_MODE=oauth, no issuer), on either
 * API: in front of the streaming REST API the bridge's routes sit beside /mcp, as on the REST API behind a custom
 * domain when deployed, so the issuer is this origin and the audience its /mcp in both.
 */
async function startWithLocalAuthorization(run: Run): Promise<{ url: string; close(): Promise<void> }> {
  const { env, settings, cors } = run;
  const authorization = await startLocalAuthorization({
    port: settings.ports.PORT,
    providerPort: settings.ports.LOCAL_OIDC_PORT,
    ...(cors ? { cors } : {}),
    allowLoopbackMetadata: settings.loopbackMetadata,
    log: jsonLogger({ serviceName: 'mcp-authorization-bridge', level: loadLogLevel(env) }),
    ...(settings.api === 'rest-streaming'
      ? {
          mcpStreamingHandler: async (urls) => {
            trustBridge(env, urls);
            return loadStreamingFunction(run);
          },
        }
      : {
          mcpHandler: async (urls) => {
            trustBridge(env, urls);
            return loadFunction(run);
          },
        }),
  });
  const { user } = authorization.upstream;
  run.signInProvider = authorization.upstream.issuer;
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
async function startFunction(run: Run): Promise<{ url: string; close(): Promise<void> }> {
  const { settings, cors } = run;
  const served = { port: settings.ports.PORT, ...(cors ? { cors } : {}) };
  if (settings.api === 'rest-streaming') {
    let loaded!: (handler: StreamingHandler<StreamingEvent>) => void;
    const ready = new Promise<StreamingHandler<StreamingEvent>>((resolve) => (loaded = resolve));
    const local = await startLocalServer({
      streamingHandler: async (event, stream, context) => (await ready)(event, stream, context),
      ...served,
    });
    loaded(await loadStreamingFunction(run));
    return local;
  }
  let loaded!: (handler: LambdaHttpHandler) => void;
  const ready = new Promise<LambdaHttpHandler>((resolve) => (loaded = resolve));
  const local = await startLocalServer({
    handler: async (event, context) => (await ready)(event, context),
    ...served,
  });
  loaded(await loadFunction(run));
  return local;
}

/** Stops everything on SIGINT or SIGTERM; set first, as a script may send SIGTERM once it reads the listening line. */
function stopOnSignals(run: Run, local: { close(): Promise<void> }): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('stopping', { signal });
    await local.close();
    await run.localLambda?.close();
    await run.localS3?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** The port each listening part took, by its setting. */
function listeningPorts(run: Run, url: string): Record<string, number> {
  const port = (address: string) => Number(new URL(address).port);
  return {
    PORT: port(url),
    ...(run.localS3 ? { LOCAL_S3_PORT: port(run.localS3.endpoint) } : {}),
    ...(run.localLambda ? { LOCAL_LAMBDA_PORT: port(run.localLambda.endpoint) } : {}),
    ...(run.signInProvider ? { LOCAL_OIDC_PORT: port(run.signInProvider) } : {}),
  };
}

/** Starts the app in `appDir` (its function entries and its .local folder) until a signal stops it. */
export async function start(appDir: string, env: Env = process.env): Promise<void> {
  const settings = orFail(() => readLocalSettings(env));
  setLocalDefaults(env);
  // With local authorization the function's issuer is known only once the bridge listens.
  const config: Config = orFail(() =>
    loadConfig(settings.localAuthorization ? { ...env, MCP_AUTH_MODE: 'none' } : env),
  );
  const run: Run = {
    appDir,
    env,
    settings,
    cors: localGatewayCors(settings.api, config, settings.localAuthorization),
    ttlDays: config.offload.ttlDays,
  };
  let local: { url: string; close(): Promise<void> };
  try {
    local = await (settings.localAuthorization ? startWithLocalAuthorization(run) : startFunction(run));
  } catch (error) {
    fail(inUse(error) ? busySetting(run, error) : `cannot start: ${(error as Error).message}`);
  }
  stopOnSignals(run, local);
  if (settings.delayMs > 0)
    log('LOCAL_DELAY_MS: every request waits before the function runs (a testing aid)', {
      delayMs: settings.delayMs,
    });
  log('listening', { url: `${local.url}/mcp`, api: settings.api, ports: listeningPorts(run, local.url) });
}

/** The command: `npm start` takes its settings from the environment, and no arguments. */
export async function main(args: string[]): Promise<number | undefined> {
  if (args.length) {
    console.error(usage);
    return 2;
  }
  await start(process.cwd());
  return undefined;
}
