/**
 * What `npm start` reads from the environment besides the function's own configuration (README "Local
 * development"): the ports of the server and of each embedded stand-in, the API it stands in for, and the local
 * authorization's options. Each is checked here, so a wrong value stops start-up with one line naming it.
 */
import { Defaults } from '@mcp-lambda/server/limits';

type Env = Readonly<Record<string, string | undefined>>;

/** The ports `npm start` listens on, each pinned by its setting (0: the system chooses a free one). */
export interface LocalPorts {
  /** PORT: the MCP endpoint (and, with local authorization, the bridge). */
  PORT: number;
  /** LOCAL_S3_PORT: the embedded S3-compatible server. */
  LOCAL_S3_PORT: number;
  /** LOCAL_LAMBDA_PORT: the Lambda Invoke stand-in through which the function reaches its companion. */
  LOCAL_LAMBDA_PORT: number;
  /** LOCAL_OIDC_PORT: the embedded OpenID provider (the sign-in) of local authorization. */
  LOCAL_OIDC_PORT: number;
}

export interface LocalSettings {
  ports: LocalPorts;
  /** LOCAL_API: the API stood in for, as `-c api=…` picks it for a deployment. */
  api: 'http' | 'rest-streaming';
  /** MCP_AUTH_MODE=oauth without MCP_AUTH_ISSUER: the authorization bridge and an OpenID provider run here. */
  localAuthorization: boolean;
  /** BRIDGE_CIMD_ALLOW_LOOPBACK: Client ID Metadata Documents may live on loopback (locally true by default). */
  loopbackMetadata: boolean;
  /**
   * LOCAL_DELAY_MS: milliseconds each request waits before the function runs (0: none). A testing aid: the local
   * endpoint then answers as a slower one would, e.g. to see a load test's open model keep its rate while the
   * latencies grow.
   */
  delayMs: number;
}

/** The longest LOCAL_DELAY_MS: a minute, well past any load test's timeout. */
const MAX_DELAY_MS = 60_000;

/** A port number from the environment: 0 to 65535 (0 lets the system choose). */
export function port(env: Env, name: keyof LocalPorts, fallback: number): number {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`${name} must be an integer from 0 to 65535 (got ${JSON.stringify(raw)})`);
  return value;
}

/** Reads and checks the settings; throws an Error whose message is the one line to print. */
export function readLocalSettings(env: Env): LocalSettings {
  const ports: LocalPorts = {
    PORT: port(env, 'PORT', Defaults.localPort),
    LOCAL_S3_PORT: port(env, 'LOCAL_S3_PORT', 0),
    LOCAL_LAMBDA_PORT: port(env, 'LOCAL_LAMBDA_PORT', 0),
    LOCAL_OIDC_PORT: port(env, 'LOCAL_OIDC_PORT', 0),
  };
  // `http` (the default) answers each request at once; `rest-streaming` streams the answer, so progress arrives
  // while a tool runs.
  const api = env.LOCAL_API || 'http';
  if (api !== 'http' && api !== 'rest-streaming')
    throw new Error(`LOCAL_API must be "http" or "rest-streaming" (got ${JSON.stringify(env.LOCAL_API)})`);
  // With either API: in front of the streaming REST API the bridge's routes sit beside /mcp on one origin, as the
  // stack puts them on the REST API behind a custom domain.
  const localAuthorization = env.MCP_AUTH_MODE?.trim() === 'oauth' && !env.MCP_AUTH_ISSUER?.trim();
  const loopback = env.BRIDGE_CIMD_ALLOW_LOOPBACK?.trim() || 'true';
  if (loopback !== 'true' && loopback !== 'false')
    throw new Error(
      `BRIDGE_CIMD_ALLOW_LOOPBACK must be "true" or "false" (got ${JSON.stringify(env.BRIDGE_CIMD_ALLOW_LOOPBACK)})`,
    );
  const delay = env.LOCAL_DELAY_MS?.trim() || '0';
  if (!/^\d{1,5}$/.test(delay) || Number(delay) > MAX_DELAY_MS)
    throw new Error(
      `LOCAL_DELAY_MS must be an integer from 0 to ${MAX_DELAY_MS} (got ${JSON.stringify(env.LOCAL_DELAY_MS)})`,
    );
  return { ports, api, localAuthorization, loopbackMetadata: loopback === 'true', delayMs: Number(delay) };
}
