import { describe, expect, it } from 'vitest';
import { loadBridgeConfig } from '../../src/config.ts';
import { createDeployedBridge } from '../../src/deployed.ts';
import { createMemoryStore } from '../../src/memory-store.ts';
import { createLocalSigner } from '../../src/signer.ts';
import { silentLogger } from '@mcp-lambda/server/lambda';

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

describe('bridge configuration', () => {
  it('reads the deployed settings with their defaults', () => {
    expect(loadBridgeConfig(ENV)).toMatchObject({
      issuer: ENV.BRIDGE_ISSUER,
      scopes: ['mcp'],
      resourceName: 'this MCP server',
      upstream: { scopes: ['openid', 'email'], clientId: 'client' },
      allowLoopbackMetadata: false,
      tracing: 'off',
    });
    expect(loadBridgeConfig({ ...ENV, BRIDGE_TRACING: 'true' }).tracing).toBe('on');
    expect(loadBridgeConfig({ ...ENV, BRIDGE_TRACING: 'propagation' }).tracing).toBe('propagation');
  });

  it.each([
    ['a missing variable', { BRIDGE_TABLE: '' }, /BRIDGE_TABLE is required/],
    [
      'an issuer with a path',
      { BRIDGE_ISSUER: `${ENV.BRIDGE_ISSUER}/auth` },
      /BRIDGE_ISSUER must be an https origin/,
    ],
    ['an http issuer off loopback', { BRIDGE_ISSUER: 'http://abc.example.com' }, /BRIDGE_ISSUER/],
    ['loopback CIMD with an https issuer', { BRIDGE_CIMD_ALLOW_LOOPBACK: 'true' }, /local development only/],
    ['offline_access as a resource scope', { BRIDGE_SCOPES: 'mcp offline_access' }, /invalid scope/],
    ['a secret that is not an ARN', { BRIDGE_SEALING_SECRET_ARN: 'my-secret' }, /Secrets Manager ARN/],
    [
      'a tracing mode there is none of',
      { BRIDGE_TRACING: 'yes' },
      /BRIDGE_TRACING must be one of off, propagation, on, console/,
    ],
    ['the X-Ray mode that was removed', { BRIDGE_TRACING: 'xray' }, /BRIDGE_TRACING=xray was removed/],
  ])('refuses %s', (_, change, message) => {
    expect(() => loadBridgeConfig({ ...ENV, ...change })).toThrow(message);
  });
});

describe('the deployed bridge', () => {
  const ctx = () => ({ requestId: 'r', log: silentLogger, deadline: Date.now() + 10_000 });
  const metadataRequest = { method: 'GET', path: '/.well-known/oauth-authorization-server', headers: {} };

  it('answers 503 while the sealing secret cannot be read, and recovers once it can', async () => {
    let reads = 0;
    let available = false;
    const bridge = createDeployedBridge(loadBridgeConfig(ENV), {
      readSecret: async () => {
        reads += 1;
        if (!available) throw new Error('AccessDenied');
        return 'z'.repeat(64);
      },
      store: createMemoryStore(),
      signer: await createLocalSigner(),
    });
    const down = await bridge.handle(metadataRequest, ctx());
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).not.toContain('AccessDenied');
    available = true;
    const up = await bridge.handle(metadataRequest, ctx());
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body)).toMatchObject({
      issuer: ENV.BRIDGE_ISSUER,
      code_challenge_methods_supported: ['S256'],
    });
    await bridge.handle(metadataRequest, ctx());
    // One failed read, then one read for the container's life.
    expect(reads).toBe(2);
  });

  it('serves the JWKS from its signer', async () => {
    const signer = await createLocalSigner();
    const bridge = createDeployedBridge(loadBridgeConfig(ENV), {
      readSecret: async () => 'z'.repeat(64),
      store: createMemoryStore(),
      signer,
    });
    const res = await bridge.handle({ method: 'GET', path: '/oauth/jwks', headers: {} }, ctx());
    expect(JSON.parse(res.body)).toEqual(await signer.jwks(AbortSignal.timeout(1000)));
  });
});
