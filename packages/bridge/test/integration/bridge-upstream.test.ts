import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstream } from '../../src/upstream.ts';

/**
 * The bridge as a relying party: what it accepts from the upstream OpenID provider's token endpoint. The provider
 * is reached over TLS by the bridge itself, so each row is defence in depth against a provider (or a path to it)
 * that answers with an ID token it should not, and against mix-up at the callback (RFC 9207).
 */

const CLIENT_ID = 'bridge-client';
const CLIENT_SECRET = 'upstream-client-secret-with-enough-length';
const NONCE = 'nonce-from-the-sealed-state';

let issuer: string;
let signingKey: CryptoKey;
let foreignKey: CryptoKey;
let answer: () => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;
let lastTokenRequest: { authorization?: string; form: URLSearchParams } | undefined;
let advertiseIss = false;
let close: () => Promise<void>;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(body));
  });

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  foreignKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const server = createServer(async (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration')
      return send(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        ...(advertiseIss ? { authorization_response_iss_parameter_supported: true } : {}),
      });
    if (req.url === '/jwks') return send(200, { keys: [jwk] });
    if (req.url === '/token' && req.method === 'POST') {
      lastTokenRequest = {
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        form: new URLSearchParams(await readBody(req)),
      };
      const out = await answer();
      return send(out.status, out.body, out.headers);
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
});
afterAll(async () => {
  await close?.();
});

const claims = (extra: Record<string, unknown> = {}, omit: string[] = []): JWTPayload => {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: issuer,
    aud: CLIENT_ID,
    sub: 'user-7',
    nonce: NONCE,
    iat: now,
    exp: now + 300,
    ...extra,
  };
  for (const name of omit) delete payload[name];
  return payload;
};
const signed = (payload: JWTPayload, key = signingKey, kid = 'k1') =>
  new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
const idToken = (token: Promise<string> | string) => async () => ({
  status: 200,
  body: { access_token: 'upstream-access', token_type: 'Bearer', id_token: await token },
});

function redeem(iss?: string) {
  const upstream = createUpstream({
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    scopes: ['openid'],
    timeoutMs: 2_000,
  });
  return upstream.redeem(
    {
      code: 'upstream-code',
      redirectUri: 'https://bridge.example.com/oauth/callback',
      codeVerifier: 'v'.repeat(43),
      nonce: NONCE,
      iss,
    },
    AbortSignal.timeout(5_000),
  );
}

describe('the ID token from the upstream provider', () => {
  it('accepts a good one, redeeming the code with Basic authentication, PKCE and the fixed callback', async () => {
    answer = idToken(signed(claims()));
    expect(await redeem()).toEqual({ ok: true, subject: 'user-7' });
    const basic = Buffer.from(lastTokenRequest!.authorization!.replace(/^Basic /, ''), 'base64').toString();
    expect(basic).toBe(`${CLIENT_ID}:${CLIENT_SECRET}`);
    expect(Object.fromEntries(lastTokenRequest!.form)).toEqual({
      grant_type: 'authorization_code',
      code: 'upstream-code',
      redirect_uri: 'https://bridge.example.com/oauth/callback',
      code_verifier: 'v'.repeat(43),
    });
  });

  it('accepts several audiences when azp names this client', async () => {
    answer = idToken(signed(claims({ aud: [CLIENT_ID, 'other'], azp: CLIENT_ID })));
    expect((await redeem()).ok).toBe(true);
  });

  it.each<[string, () => Promise<string> | string]>([
    ['another nonce (a replayed or injected ID token)', () => signed(claims({ nonce: 'other' }))],
    ['no nonce', () => signed(claims({}, ['nonce']))],
    ['another issuer', () => signed(claims({ iss: 'https://evil.example.com' }))],
    ['another audience', () => signed(claims({ aud: 'someone-else' }))],
    ['several audiences and no azp', () => signed(claims({ aud: [CLIENT_ID, 'other'] }))],
    ['an azp naming another client', () => signed(claims({ aud: [CLIENT_ID, 'other'], azp: 'other' }))],
    ['an expiry in the past', () => signed(claims({ exp: Math.floor(Date.now() / 1000) - 120 }))],
    ['no subject', () => signed(claims({}, ['sub']))],
    ['an empty subject', () => signed(claims({ sub: '' }))],
    ['an overlong subject', () => signed(claims({ sub: 's'.repeat(300) }))],
    ['alg none', () => new UnsecuredJWT(claims()).encode()],
    [
      'HS256 keyed with the client secret (key confusion)',
      () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
          .sign(new TextEncoder().encode(CLIENT_SECRET)),
    ],
    ['a signature by a key the provider never published', () => signed(claims(), foreignKey)],
  ])('refuses %s', async (_, make) => {
    answer = idToken(make());
    const result = await redeem();
    expect(result).toMatchObject({ ok: false, temporary: false });
  });

  it('refuses a kid the provider never published, as temporary (a key set behind a rotation looks the same)', async () => {
    answer = idToken(signed(claims(), signingKey, 'unknown'));
    expect(await redeem()).toMatchObject({ ok: false, temporary: true });
  });

  it.each<[string, () => ReturnType<typeof answer>]>([
    ['an error answer', async () => ({ status: 400, body: { error: 'invalid_grant' } })],
    ['no ID token', async () => ({ status: 200, body: { access_token: 'a', token_type: 'Bearer' } })],
  ])('refuses a token response with %s', async (_, make) => {
    answer = make;
    expect(await redeem()).toMatchObject({ ok: false, temporary: false });
  });

  it.each<[string, () => ReturnType<typeof answer>]>([
    ['a provider error', async () => ({ status: 500, body: 'oops' })],
    ['an unavailable provider', async () => ({ status: 503, body: { error: 'temporarily_unavailable' } })],
    ['throttling', async () => ({ status: 429, body: { error: 'slow_down' } })],
  ])(
    'treats %s at the code exchange as temporary: it said nothing about the code or the user',
    async (_, make) => {
      answer = make;
      expect(await redeem()).toMatchObject({ ok: false, temporary: true });
    },
  );

  it.each<[string, () => ReturnType<typeof answer>]>([
    [
      'a redirect elsewhere',
      async () => ({ status: 307, body: '', headers: { location: 'https://evil.example.com/token' } }),
    ],
    ['an oversized body', async () => ({ status: 200, body: 'x'.repeat(70_000) })],
    ['a body that is not JSON', async () => ({ status: 200, body: '<html>' })],
  ])('treats %s from the token endpoint as a failure, never follows it', async (_, make) => {
    answer = make;
    expect(await redeem()).toMatchObject({ ok: false });
  });
});

describe('mix-up defence at the callback (RFC 9207)', () => {
  it('refuses a response whose iss names another issuer', async () => {
    answer = idToken(signed(claims()));
    lastTokenRequest = undefined;
    expect(await redeem('https://evil.example.com')).toMatchObject({ ok: false, temporary: false });
    expect(lastTokenRequest).toBeUndefined();
  });

  it('refuses a response without iss from a provider that advertises it', async () => {
    advertiseIss = true;
    try {
      answer = idToken(signed(claims()));
      const upstream = await redeem(undefined);
      expect(upstream).toMatchObject({ ok: false, temporary: false });
      expect((await redeem(issuer)).ok).toBe(true);
    } finally {
      advertiseIss = false;
    }
  });
});

describe('the refresh that asks the provider whether the user may go on', () => {
  const refresh = () =>
    createUpstream({
      issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      scopes: ['openid'],
      timeoutMs: 2_000,
    }).refresh({ refreshToken: 'provider-refresh', subject: 'user-7' }, AbortSignal.timeout(5_000));
  const refreshed = (extra: Record<string, unknown>) => async () => ({
    status: 200,
    body: { access_token: 'a', token_type: 'Bearer', ...extra },
  });

  it('presents the refresh token with Basic authentication, and keeps it when the provider does not rotate it', async () => {
    answer = refreshed({ id_token: await signed(claims({}, ['nonce'])) });
    expect(await refresh()).toEqual({ ok: true, refreshToken: 'provider-refresh' });
    expect(Object.fromEntries(lastTokenRequest!.form)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'provider-refresh',
    });
    expect(lastTokenRequest!.authorization).toMatch(/^Basic /);
  });

  it("keeps the provider's new refresh token when it rotates it, and needs no ID token", async () => {
    answer = refreshed({ refresh_token: 'provider-refresh-2' });
    expect(await refresh()).toEqual({ ok: true, refreshToken: 'provider-refresh-2' });
  });

  it('refuses a refreshed ID token naming another user (OpenID Connect Core §12.2)', async () => {
    answer = refreshed({ id_token: await signed(claims({ sub: 'someone-else' }, ['nonce'])) });
    expect(await refresh()).toMatchObject({ ok: false, temporary: false });
  });

  it('refuses a refreshed ID token signed by a key the provider never published', async () => {
    answer = refreshed({ id_token: await signed(claims({}, ['nonce']), foreignKey) });
    expect(await refresh()).toMatchObject({ ok: false, temporary: false });
  });

  it('treats a refreshed ID token under a key id not in the key set it has as temporary: keys rotate, the user did nothing', async () => {
    // The key set was just read (no second read within the refetch interval), then the provider rotated its key.
    const upstream = createUpstream({
      issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      scopes: ['openid'],
      timeoutMs: 2_000,
    });
    const ask = () =>
      upstream.refresh({ refreshToken: 'provider-refresh', subject: 'user-7' }, AbortSignal.timeout(5_000));
    answer = refreshed({ id_token: await signed(claims({}, ['nonce'])) });
    expect((await ask()).ok).toBe(true);
    answer = refreshed({ id_token: await signed(claims({}, ['nonce']), signingKey, 'k2') });
    expect(await ask()).toMatchObject({ ok: false, temporary: true });
  });

  it('reads invalid_grant as the provider no longer accepting the user (disabled, deleted, signed out)', async () => {
    answer = async () => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'User is disabled.' },
    });
    expect(await refresh()).toEqual({
      ok: false,
      reason: 'the sign-in provider no longer accepts this user',
      temporary: false,
    });
  });

  it.each<[string, () => ReturnType<typeof answer>]>([
    [
      'our client refused (a rotated secret: not the user’s doing)',
      async () => ({ status: 401, body: { error: 'invalid_client' } }),
    ],
    ['throttling', async () => ({ status: 429, body: { error: 'slow_down' } })],
    ['a provider error', async () => ({ status: 500, body: 'oops' })],
    ['a 400 that is not invalid_grant', async () => ({ status: 400, body: { error: 'invalid_request' } })],
    ['a body that is not JSON', async () => ({ status: 200, body: '<html>' })],
    [
      'an answer that never comes in time',
      () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: {} }), 3_000)),
    ],
  ])('treats %s as temporary, never as a sign-out', async (_, make) => {
    answer = make;
    expect(await refresh()).toMatchObject({ ok: false, temporary: true });
  });
});
