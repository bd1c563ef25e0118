import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDynamoStore } from '../../src/dynamodb-store.ts';
import { randomToken, sha256 } from '../../src/http.ts';
import { awsKms, createKmsSigner } from '../../src/kms-signer.ts';
import { createMemoryStore } from '../../src/memory-store.ts';
import { readSecretsManager } from '../../src/secrets.ts';
import { createSealer } from '../../src/seal.ts';
import { createLocalSigner } from '../../src/signer.ts';
import type { Upstream } from '../../src/upstream.ts';
import {
  createDeployedBridge,
  loadBridgeConfig,
  type DeployedDependencies,
  BridgeLimits,
} from '../../src/index.ts';
import { createLambdaHandler, silentLogger } from '@mcp-lambda/server/lambda';
import {
  serveHandler,
  type RunningServer,
  silentEndpoint,
  type SilentEndpoint,
} from '@mcp-lambda/dev/testing';

/**
 * The authorization bridge keeps the deadline rule: its DynamoDB store, its KMS signer and its Secrets Manager
 * reads, on an endpoint that accepts connections and never answers, cost the client the documented 503
 * (`temporarily_unavailable`, `Retry-After`) within the invocation's deadline, and the next request is served.
 */

/** The simulated Lambda time limit: under the bridge's own cap on one call, so only the deadline can end them. */
const DEADLINE_MS = 3_000;
const REDIRECT = 'http://127.0.0.1:43111/callback';
const ENV = {
  BRIDGE_ISSUER: 'https://abc.execute-api.eu-west-1.amazonaws.com',
  BRIDGE_RESOURCE: 'https://abc.execute-api.eu-west-1.amazonaws.com/mcp',
  BRIDGE_UPSTREAM_ISSUER: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
  BRIDGE_UPSTREAM_CLIENT_ID: 'client',
  BRIDGE_UPSTREAM_CLIENT_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:upstream-AbCdEf',
  BRIDGE_SEALING_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:sealing-AbCdEf',
  BRIDGE_SIGNING_KEY_ID: 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab',
  BRIDGE_TABLE: 'McpServer-BridgeTable',
};

let silent: SilentEndpoint;
const servers: RunningServer[] = [];
const sealingSecret = async () => 's'.repeat(64);
/** A sign-in provider that still accepts every user (only the bridge's own backends are under test here). */
const acceptingUpstream = {
  refresh: async (params: { refreshToken: string }) => ({ ok: true, refreshToken: params.refreshToken }),
} as unknown as Upstream;

async function serve(dependencies: DeployedDependencies): Promise<RunningServer> {
  const bridge = createDeployedBridge(loadBridgeConfig(ENV), dependencies);
  const server = await serveHandler(createLambdaHandler(bridge.handle, silentLogger), {
    timeoutMs: DEADLINE_MS,
    path: '',
  });
  servers.push(server);
  return server;
}

async function request(
  base: string,
  path: string,
  init: { form?: Record<string, string>; json?: unknown } = {},
) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: init.form || init.json ? 'POST' : 'GET',
    ...(init.form
      ? {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(init.form).toString(),
        }
      : init.json
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.json) }
        : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: performance.now() - started };
}

/** Registers a public client for codes and refresh tokens (no store or key involved). */
async function registerClient(base: string): Promise<string> {
  const res = await request(base, '/oauth/register', {
    json: {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
  });
  expect(res.status).toBe(201);
  return (JSON.parse(res.text) as { client_id: string }).client_id;
}

/** The documented answer of a store, key or secret that failed: 503, retry shortly, nothing internal. */
function expectUnavailable(res: Awaited<ReturnType<typeof request>>) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(res.ms).toBeLessThan(DEADLINE_MS);
  expect(res.text).not.toMatch(/abort|timeout|127\.0\.0\.1/i);
}

beforeAll(async () => {
  silent = await silentEndpoint();
  // The real SDK clients, pointed at the endpoint that never answers (static credentials, no metadata service).
  vi.stubEnv('AWS_ENDPOINT_URL_SECRETS_MANAGER', silent.url);
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  vi.stubEnv('AWS_REGION', 'eu-west-1');
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await silent.close();
  vi.unstubAllEnvs();
});

describe('the deployed bridge with backends that accept connections and never answer', () => {
  it('the caller outwaits the bridge cap on one call: the test deadline is what ends them', () => {
    expect(BridgeLimits.outboundTimeoutMs).toBeGreaterThan(DEADLINE_MS);
  });

  it('a Secrets Manager that never answers: 503 before the deadline, then served once the secret can be read', async () => {
    let secretsAnswer = false;
    const server = await serve({
      readSecret: (arn, signal) => (secretsAnswer ? sealingSecret() : readSecretsManager(arn, signal)),
      store: createMemoryStore(),
      signer: await createLocalSigner(),
    });
    const before = silent.connections();
    const down = await request(server.base, '/.well-known/oauth-authorization-server');
    expect(silent.connections()).toBeGreaterThan(before);
    expectUnavailable(down);
    expect(JSON.parse(down.text)).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'try again shortly',
    });
    secretsAnswer = true;
    const up = await request(server.base, '/.well-known/oauth-authorization-server');
    expect(up.status).toBe(200);
    expect(up.ms).toBeLessThan(DEADLINE_MS / 2);
  });

  it('a DynamoDB table that never answers: a code redemption answers 503 before the deadline', async () => {
    const server = await serve({
      readSecret: sealingSecret,
      store: createDynamoStore({ tableName: 'bridge', endpoint: silent.url, region: 'eu-west-1' }),
      signer: await createLocalSigner(),
    });
    const clientId = await registerClient(server.base);
    const before = silent.connections();
    const res = await request(server.base, '/oauth/token', {
      form: {
        grant_type: 'authorization_code',
        client_id: clientId,
        code: randomToken(),
        code_verifier: randomToken(),
        redirect_uri: REDIRECT,
      },
    });
    expect(silent.connections()).toBeGreaterThan(before);
    expectUnavailable(res);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'temporarily_unavailable' });
    // The next request that needs no table is served at once.
    expect((await registerClient(server.base)).length).toBeGreaterThan(0);
  });

  describe('a KMS key that never answers', () => {
    let server: RunningServer;
    const store = createMemoryStore();
    beforeAll(async () => {
      const kms = awsKms({ endpoint: silent.url, region: 'eu-west-1' });
      server = await serve({
        readSecret: sealingSecret,
        store,
        signer: createKmsSigner(ENV.BRIDGE_SIGNING_KEY_ID, kms),
        upstream: acceptingUpstream,
      });
    });

    it('the JWKS answers 503 before the deadline', async () => {
      const before = silent.connections();
      const res = await request(server.base, '/oauth/jwks');
      expect(silent.connections()).toBeGreaterThan(before);
      expectUnavailable(res);
    });

    it('a refresh that must sign a token answers 503 before the deadline; the metadata is served next', async () => {
      const clientId = await registerClient(server.base);
      const familyId = randomToken(16);
      const refreshToken = `${familyId}.${randomToken()}`;
      const created = await store.createFamily(
        {
          id: familyId,
          clientHash: sha256(clientId),
          subject: 'user-1',
          scope: 'mcp offline_access',
          resource: ENV.BRIDGE_RESOURCE,
          tokenHash: sha256(refreshToken),
          issuedAt: Math.floor(Date.now() / 1000),
          upstream: createSealer(await sealingSecret()).seal('upstream-refresh', {
            s: 'user-1',
            t: 'provider',
          }),
          expiresAt: Math.floor(Date.now() / 1000) + 3_600,
        },
        AbortSignal.timeout(1_000),
      );
      expect(created).toBe(true);
      const res = await request(server.base, '/oauth/token', {
        form: { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken },
      });
      expectUnavailable(res);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'temporarily_unavailable' });
      const next = await request(server.base, '/.well-known/oauth-authorization-server');
      expect(next.status).toBe(200);
      expect(next.ms).toBeLessThan(DEADLINE_MS / 2);
    });
  });
});
