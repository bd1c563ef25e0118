import { isScopeToken } from '@mcp-lambda/server/auth';
import { isSecureUrl } from '@mcp-lambda/server/auth';
import { tracingMode, type TracingMode } from '@mcp-lambda/server/lambda';

/**
 * Configuration of the deployed bridge function, read once per container from its environment, validated and
 * typed (the MCP function's own settings stay in `packages/server/src/config.ts`). The CDK construct sets every variable; the
 * docs/authorization.md "The authorization bridge" lists them.
 */
export interface BridgeConfig {
  /** BRIDGE_ISSUER: the origin the bridge is served on, e.g. `https://abc.execute-api.eu-west-1.amazonaws.com`. */
  issuer: string;
  /** BRIDGE_RESOURCE: the MCP endpoint URL, audience of every token. */
  resource: string;
  /** BRIDGE_RESOURCE_NAME: shown on the consent page. */
  resourceName: string;
  /** BRIDGE_SCOPES: resource scopes the bridge grants (comma or space separated). */
  scopes: string[];
  /** BRIDGE_UPSTREAM_ISSUER / _CLIENT_ID / _SCOPES / _CLIENT_SECRET_ARN: the OpenID provider users sign in with. */
  upstream: { issuer: string; clientId: string; scopes: string[]; clientSecretArn: string };
  /** BRIDGE_SEALING_SECRET_ARN: the Secrets Manager secret keying sealed client ids, transactions and cookies. */
  sealingSecretArn: string;
  /** BRIDGE_SIGNING_KEY_ID: the KMS key (ECC_NIST_P256, SIGN_VERIFY) that signs access tokens. */
  signingKeyId: string;
  /** BRIDGE_TABLE: the DynamoDB table of codes and refresh families. */
  table: string;
  /**
   * BRIDGE_CIMD_ALLOW_LOOPBACK: metadata documents may live on loopback. Only for an issuer on loopback (local
   * development); refused for any deployed (https) issuer, so the SSRF guard cannot be switched off there.
   */
  allowLoopbackMetadata: boolean;
  /**
   * BRIDGE_TRACING: OpenTelemetry traces of the bridge, as MCP_TRACING for the MCP function (`off`, `propagation`,
   * `on`, `console`; `true`/`false` read as `on`/`off`; default off): a span per request and per KMS, DynamoDB and
   * Secrets Manager call, exported by the standard `OTEL_*` variables.
   */
  tracing: TracingMode;
}

type Env = Readonly<Record<string, string | undefined>>;

const ARN = /^arn:aws[a-z-]*:[a-z0-9-]+:[a-z0-9-]*:\d{12}:.+$/;

function required(env: Env, name: string, check?: (value: string) => boolean, expected?: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Configuration: ${name} is required by the authorization bridge`);
  if (check && !check(value))
    throw new Error(`Configuration: ${name} must be ${expected} (got ${JSON.stringify(value)})`);
  return value;
}

function scopeList(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const values = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  const bad = values.find((v) => !isScopeToken(v) || v === 'offline_access');
  if (bad !== undefined)
    throw new Error(`Configuration: ${name} has an invalid scope ${JSON.stringify(bad)}`);
  return values;
}

function flag(env: Env, name: string): boolean {
  const value = env[name]?.trim() || 'false';
  if (value !== 'true' && value !== 'false')
    throw new Error(`Configuration: ${name} must be "true" or "false"`);
  return value === 'true';
}

const isOrigin = (value: string) => isSecureUrl(value) && new URL(value).origin === value;

/** Reads and validates the bridge configuration; throws naming the variable when a value is invalid. */
export function loadBridgeConfig(env: Env): BridgeConfig {
  const issuer = required(env, 'BRIDGE_ISSUER', isOrigin, 'an https origin without path or trailing slash');
  const allowLoopbackMetadata = flag(env, 'BRIDGE_CIMD_ALLOW_LOOPBACK');
  if (allowLoopbackMetadata && new URL(issuer).protocol === 'https:')
    throw new Error(
      'Configuration: BRIDGE_CIMD_ALLOW_LOOPBACK is for local development only, never with an https issuer',
    );
  return {
    issuer,
    resource: required(env, 'BRIDGE_RESOURCE', isSecureUrl, 'an https URL without query or fragment'),
    resourceName: env.BRIDGE_RESOURCE_NAME?.trim() || 'this MCP server',
    scopes: scopeList(env, 'BRIDGE_SCOPES', ['mcp']),
    upstream: {
      issuer: required(env, 'BRIDGE_UPSTREAM_ISSUER', isSecureUrl, 'an https URL'),
      clientId: required(env, 'BRIDGE_UPSTREAM_CLIENT_ID'),
      scopes: scopeList(env, 'BRIDGE_UPSTREAM_SCOPES', ['openid', 'email']),
      clientSecretArn: required(
        env,
        'BRIDGE_UPSTREAM_CLIENT_SECRET_ARN',
        (v) => ARN.test(v),
        'a Secrets Manager ARN',
      ),
    },
    sealingSecretArn: required(env, 'BRIDGE_SEALING_SECRET_ARN', (v) => ARN.test(v), 'a Secrets Manager ARN'),
    signingKeyId: required(env, 'BRIDGE_SIGNING_KEY_ID', (v) => ARN.test(v), 'a KMS key ARN'),
    table: required(env, 'BRIDGE_TABLE', (v) => /^[A-Za-z0-9_.-]{3,255}$/.test(v), 'a DynamoDB table name'),
    allowLoopbackMetadata,
    tracing: tracingMode(env, 'BRIDGE_TRACING'),
  };
}
