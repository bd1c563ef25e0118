import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BridgeLimits } from '../../src/index.ts';
import { startBridgeStack, type BridgeStack, browse, CookieJar, pkce } from '@mcp-lambda/dev/testing';

/**
 * The abuse table of the authorization bridge: each row is one way a client, an attacker's page or a thief tries
 * to get a token it should not, over real HTTP against the local bridge, upstream provider and MCP server.
 */

let stack: BridgeStack;
let clockOffsetMs = 0;
beforeAll(async () => {
  stack = await startBridgeStack({ now: () => Date.now() + clockOffsetMs });
});
afterAll(async () => {
  await stack?.close();
});

const REDIRECT = 'http://127.0.0.1:41999/callback';
const WEB_REDIRECT = 'https://app.example.com/oauth/callback';

async function register(metadata: Record<string, unknown>) {
  const res = await fetch(`${stack.issuer}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

const publicClient = (redirectUris = [REDIRECT, WEB_REDIRECT]) =>
  register({
    client_name: 'Abuse test',
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
  }).then((r) => r.json.client_id as string);

function authorizeUrl(params: Record<string, string | undefined>): string {
  const url = new URL(`${stack.issuer}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.append(k, v);
  return url.href;
}

function goodParams(clientId: string, challenge: string, extra: Record<string, string | undefined> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    scope: 'mcp offline_access',
    ...extra,
  };
}

/** Runs the whole browser leg and returns the code the client receives. */
async function obtainCode(
  clientId: string,
  challenge: string,
  extra: Record<string, string | undefined> = {},
  jar?: CookieJar,
) {
  const { callback } = await browse(authorizeUrl(goodParams(clientId, challenge, extra)), {
    until: (extra.redirect_uri ?? REDIRECT).replace(/:\d+\//, (m) => m),
    email: stack.upstream.user.email,
    password: stack.password,
    ...(jar ? { jar } : {}),
  });
  expect(callback.searchParams.get('iss')).toBe(stack.issuer);
  expect(callback.searchParams.get('state')).toBe('st-123');
  return callback.searchParams.get('code')!;
}

async function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.issuer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

const redeem = (clientId: string, code: string, verifier: string, redirectUri = REDIRECT) =>
  token({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  });

const refreshWith = (clientId: string, refreshToken: string) =>
  token({ grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/** GET without following redirects. */
async function visit(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: 'manual', headers });
  const body = await res.text();
  return { status: res.status, location: res.headers.get('location'), body, headers: res.headers };
}

/** The link back to the client that an error page offers (the user decides whether to follow it). */
function linkBack(body: string): URL | undefined {
  const href = /<a href="([^"]+)"/.exec(body)?.[1];
  return href ? new URL(href.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))) : undefined;
}

async function callTool(accessToken: string) {
  const res = await fetch(stack.resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    }),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

describe('the happy path the abuse rows deviate from', () => {
  it('issues a code, tokens bound to the MCP resource, and the token calls a tool', async () => {
    const clientId = await publicClient();
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    const res = await redeem(clientId, code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp offline_access' });
    const payload = JSON.parse(Buffer.from(res.json.access_token.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({
      iss: stack.issuer,
      aud: stack.resource,
      sub: 'dev-user',
      scope: 'mcp',
      client_id: clientId,
    });
    const call = await callTool(res.json.access_token);
    expect(call.status).toBe(200);
    expect(call.json.result.structuredContent.subject).toBe('dev-user');
  });

  it('mints RFC 9068 tokens: ES256 under the published kid, typ at+jwt, one hour, a fresh jti each', async () => {
    const clientId = await publicClient();
    const tokens = [];
    for (let i = 0; i < 2; i += 1) {
      const { verifier, challenge } = pkce();
      tokens.push(
        (await redeem(clientId, await obtainCode(clientId, challenge), verifier)).json.access_token,
      );
    }
    const part = (jwt: string, i: number) =>
      JSON.parse(Buffer.from(jwt.split('.')[i]!, 'base64url').toString());
    const { keys } = (await (await fetch(`${stack.issuer}/oauth/jwks`)).json()) as {
      keys: { kid: string }[];
    };
    expect(keys).toHaveLength(1);
    expect(part(tokens[0]!, 0)).toEqual({ alg: 'ES256', typ: 'at+jwt', kid: keys[0]!.kid });
    const [a, b] = tokens.map((t) => part(t, 1));
    expect(a.exp - a.iat).toBe(3600);
    // `sid` names the refresh family, so revoking the access token can end it (RFC 7009 §2.1).
    expect(Object.keys(a).sort()).toEqual([
      'aud',
      'client_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'scope',
      'sid',
      'sub',
    ]);
    expect(a.jti).not.toBe(b.jti);
  });
});

describe('open redirects and redirect_uri mismatch (shown as a page, never redirected)', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await publicClient();
  });
  const { challenge } = pkce();

  it.each([
    ['an unregistered host', 'https://evil.example.com/oauth/callback'],
    ['a look-alike host', 'https://app.example.com.evil.example/oauth/callback'],
    ['an added query', `${WEB_REDIRECT}?next=https://evil.example.com`],
    ['a path traversal', 'https://app.example.com/oauth/callback/../../evil'],
    ['a fragment', `${WEB_REDIRECT}#x`],
    ['http instead of https', 'http://app.example.com/oauth/callback'],
    ['another loopback path', 'http://127.0.0.1:41999/other'],
    ['a loopback host the client did not register', 'http://[::1]:41999/callback'],
    ['another spelling of the registered loopback host', 'http://127.1:41999/callback'],
    ['dot segments in a loopback path', 'http://127.0.0.1:50001/x/../callback'],
  ])('refuses %s with a 400 page and no Location', async (_, redirectUri) => {
    const res = await visit(authorizeUrl(goodParams(clientId, challenge, { redirect_uri: redirectUri })));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.body).not.toContain('evil.example');
  });

  it('accepts a loopback redirect on another port (RFC 8252 §7.3)', async () => {
    const res = await visit(
      authorizeUrl(goodParams(clientId, challenge, { redirect_uri: 'http://127.0.0.1:50001/callback' })),
    );
    expect(res.status).toBe(200);
    expect(res.body).toContain('127.0.0.1:50001');
  });

  it.each([
    ['an implicit-flow response_type', { response_type: 'token' }, 'unsupported_response_type'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['an overlong scope', { scope: 'x'.repeat(600) }, 'invalid_scope'],
    ['another resource', { resource: 'https://other.example.com/mcp' }, 'invalid_target'],
  ])(
    'does not bounce %s from a client this browser never consented to onto its redirect URI (RFC 9700 §4.11.2)',
    async (_, extra, error) => {
      const phisher = await publicClient(['https://evil.example.com/landing']);
      const res = await visit(
        authorizeUrl(
          goodParams(phisher, challenge, { redirect_uri: 'https://evil.example.com/landing', ...extra }),
        ),
      );
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.body).toContain('evil.example.com');
      const back = linkBack(res.body)!;
      expect(back.origin).toBe('https://evil.example.com');
      expect(back.searchParams.get('error')).toBe(error);
    },
  );

  it('sends an invalid request straight back to a client this browser consented to', async () => {
    const jar = new CookieJar();
    await obtainCode(clientId, pkce().challenge, {}, jar);
    const res = await visit(authorizeUrl(goodParams(clientId, challenge, { response_type: 'token' })), {
      cookie: jar.header(stack.issuer)!,
    });
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(stack.issuer);
  });

  it('shows an unknown client as a page', async () => {
    const res = await visit(authorizeUrl(goodParams('mcpc_not-a-client', challenge)));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
  });

  it('refuses a redirect_uri at the token endpoint that differs from the authorization request', async () => {
    const { verifier, challenge: c } = pkce();
    const code = await obtainCode(clientId, c);
    const res = await redeem(clientId, code, verifier, 'http://127.0.0.1:41998/callback');
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });
});

describe('PKCE', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await publicClient();
  });

  it.each([
    ['a missing code_challenge', { code_challenge: undefined }],
    ['the plain method', { code_challenge_method: 'plain' }],
    ['no method (which means plain)', { code_challenge_method: undefined }],
    ['a malformed challenge', { code_challenge: 'short' }],
  ])('answers %s with a page linking back with invalid_request, state and iss', async (_, extra) => {
    const res = await visit(authorizeUrl(goodParams(clientId, pkce().challenge, extra)));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    const location = linkBack(res.body)!;
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(stack.issuer);
  });

  it('refuses a wrong code_verifier, and the code is spent by the attempt', async () => {
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    const wrong = await redeem(clientId, code, pkce().verifier);
    expect(wrong.json).toMatchObject({ error: 'invalid_grant' });
    expect(wrong.json.error_description).toMatch(/code_verifier/);
    const retry = await redeem(clientId, code, verifier);
    expect(retry.json.error).toBe('invalid_grant');
  });

  it('refuses a token request without a code_verifier', async () => {
    const { challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    const res = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code,
      redirect_uri: REDIRECT,
    });
    expect(res.json.error).toBe('invalid_request');
  });
});

describe('authorization codes', () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = await publicClient();
  });

  it('refuses a replayed code and revokes the refresh token issued from it', async () => {
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    const first = await redeem(clientId, code, verifier);
    expect(first.status).toBe(200);
    const replay = await redeem(clientId, code, verifier);
    expect(replay.json).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used/),
    });
    const refreshed = await refreshWith(clientId, first.json.refresh_token);
    expect(refreshed.json.error).toBe('invalid_grant');
  });

  it('refuses a code presented by another client', async () => {
    const other = await publicClient();
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    const res = await redeem(other, code, verifier);
    expect(res.json).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/another client/),
    });
  });

  it('refuses an expired code (codes live 60 seconds)', async () => {
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    clockOffsetMs = 61_000;
    try {
      const res = await redeem(clientId, code, verifier);
      expect(res.json).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/expired/),
      });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('refuses an invented code', async () => {
    const res = await redeem(clientId, 'x'.repeat(43), pkce().verifier);
    expect(res.json.error).toBe('invalid_grant');
  });
});

describe('sealed values', () => {
  it("refuses the sign-in's callback replayed in another browser (login CSRF), and sends that browser nowhere", async () => {
    const clientId = await publicClient();
    const attacker = new CookieJar();
    const { callback } = await browse(authorizeUrl(goodParams(clientId, pkce().challenge)), {
      until: `${stack.issuer}/oauth/callback`,
      email: stack.upstream.user.email,
      password: stack.password,
      jar: attacker,
    });
    // The victim's browser has a binding cookie of its own, from a sign-in it started itself.
    const victim = new CookieJar();
    const own = await fetch(authorizeUrl(goodParams(clientId, pkce().challenge)), { redirect: 'manual' });
    victim.store(stack.issuer, own);
    await own.text();
    const asVictim = await visit(callback.href, { cookie: victim.header(stack.issuer)! });
    expect(asVictim.status).toBe(403);
    expect(asVictim.location).toBeNull();
    const asNobody = await visit(callback.href);
    expect(asNobody.status).toBe(403);
    // The attacker's own browser still completes: the refusal is about the browser, not the response.
    const asAttacker = await visit(callback.href, { cookie: attacker.header(stack.issuer)! });
    expect(asAttacker.status).toBe(302);
  });

  it('refuses a tampered upstream state at the callback with a page', async () => {
    const clientId = await publicClient();
    const jar = new CookieJar();
    const res = await fetch(authorizeUrl(goodParams(clientId, pkce().challenge)), { redirect: 'manual' });
    jar.store(stack.issuer, res);
    const html = await res.text();
    const transaction = /name="transaction" value="([^"]+)"/.exec(html)![1]!;
    const consent = await fetch(`${stack.issuer}/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: stack.issuer,
        cookie: jar.header(stack.issuer)!,
      },
      body: new URLSearchParams({ transaction, decision: 'allow' }).toString(),
    });
    const upstream = new URL(consent.headers.get('location')!);
    const state = upstream.searchParams.get('state')!;
    const flipped = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    const back = await visit(`${stack.issuer}/oauth/callback?code=abc&state=${flipped}`, {
      cookie: jar.header(stack.issuer)!,
    });
    expect(back.status).toBe(400);
    expect(back.location).toBeNull();
  });

  it('refuses a tampered transaction on the consent form', async () => {
    const clientId = await publicClient();
    const res = await fetch(authorizeUrl(goodParams(clientId, pkce().challenge)), { redirect: 'manual' });
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    const transaction = /name="transaction" value="([^"]+)"/.exec(await res.text())![1]!;
    const tampered = transaction.slice(0, -3) + (transaction.endsWith('AAA') ? 'BBB' : 'AAA');
    const consent = await fetch(`${stack.issuer}/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.issuer, cookie },
      body: new URLSearchParams({ transaction: tampered, decision: 'allow' }).toString(),
    });
    expect(consent.status).toBe(400);
    expect(consent.headers.get('location')).toBeNull();
  });

  it.each([
    ['a flipped byte', (id: string) => id.slice(0, 30) + (id[30] === 'A' ? 'B' : 'A') + id.slice(31)],
    [
      'a forged id',
      () =>
        `mcpc_${Buffer.from('{"r":["https://evil.example.com/cb"],"a":"none","g":["authorization_code"],"t":1}').toString('base64url')}`,
    ],
  ])('refuses a client_id with %s: a page at /authorize, invalid_client at /token', async (_, alter) => {
    const forged = alter(await publicClient());
    const page = await visit(authorizeUrl(goodParams(forged, pkce().challenge)));
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    const res = await redeem(forged, 'x'.repeat(43), pkce().verifier);
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
  });
});

/** Makes the bridge's next signature fail, as a KMS call that timed out would. */
async function withSigningFailure<T>(run: () => Promise<T>): Promise<T> {
  const sign = stack.signer.sign;
  stack.signer.sign = async () => {
    stack.signer.sign = sign;
    throw new Error('KMS did not answer in time');
  };
  try {
    return await run();
  } finally {
    stack.signer.sign = sign;
  }
}

/** A client with a refresh token, signed in. */
async function signedIn(scope = 'mcp offline_access') {
  const clientId = await publicClient();
  const { verifier, challenge } = pkce();
  const tokens = await redeem(clientId, await obtainCode(clientId, challenge, { scope }), verifier);
  expect(tokens.status).toBe(200);
  return { clientId, tokens: tokens.json };
}

const GRACE_MS = BridgeLimits.refreshGraceSeconds * 1000;

describe('refresh tokens: a retry never signs the user out, reuse still does', () => {
  it('rotates on every use; a rotated-out token back after the grace window revokes the whole family', async () => {
    const { clientId, tokens } = await signedIn();
    const second = await refreshWith(clientId, tokens.refresh_token);
    expect(second.status).toBe(200);
    expect(second.json.refresh_token).not.toBe(tokens.refresh_token);
    clockOffsetMs = GRACE_MS + 1_000;
    try {
      const reuse = await refreshWith(clientId, tokens.refresh_token);
      expect(reuse.json).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/revoked/),
      });
      const afterReuse = await refreshWith(clientId, second.json.refresh_token);
      expect(afterReuse.json.error).toBe('invalid_grant');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('answers a retry of the same refresh within the grace window with the same refresh token (a lost response)', async () => {
    const { clientId, tokens } = await signedIn();
    const first = await refreshWith(clientId, tokens.refresh_token);
    const retry = await refreshWith(clientId, tokens.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.json.refresh_token).toBe(first.json.refresh_token);
    expect(retry.json.access_token).not.toBe(first.json.access_token);
    expect((await callTool(retry.json.access_token)).status).toBe(200);
    expect((await refreshWith(clientId, first.json.refresh_token)).status).toBe(200);
  });

  it('lets two concurrent refreshes with one token both succeed with the same successor; the user stays signed in', async () => {
    const { clientId, tokens } = await signedIn();
    const race = await Promise.all([
      refreshWith(clientId, tokens.refresh_token),
      refreshWith(clientId, tokens.refresh_token),
    ]);
    expect(race.map((r) => r.status)).toEqual([200, 200]);
    expect(race[0]!.json.refresh_token).toBe(race[1]!.json.refresh_token);
    const next = await refreshWith(clientId, race[1]!.json.refresh_token);
    expect(next.status).toBe(200);
  });

  it('keeps the refresh token usable after a signing timeout: 503, then the retry succeeds', async () => {
    const { clientId, tokens } = await signedIn();
    const failed = await withSigningFailure(() => refreshWith(clientId, tokens.refresh_token));
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('5');
    expect(failed.json.error).toBe('temporarily_unavailable');
    const retry = await refreshWith(clientId, tokens.refresh_token);
    expect(retry.status).toBe(200);
    expect((await refreshWith(clientId, retry.json.refresh_token)).status).toBe(200);
  });

  it('keeps an authorization code usable after a signing timeout at its redemption', async () => {
    const clientId = await publicClient();
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    const failed = await withSigningFailure(() => redeem(clientId, code, verifier));
    expect(failed.status).toBe(503);
    const retry = await redeem(clientId, code, verifier);
    expect(retry.status).toBe(200);
    expect((await refreshWith(clientId, retry.json.refresh_token)).status).toBe(200);
  });

  it('refuses a refresh asking for a wider scope before any write: the same refresh token still works', async () => {
    const { clientId, tokens } = await signedIn('mcp');
    const wider = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
      scope: 'mcp offline_access',
    });
    expect(wider.status).toBe(400);
    expect(wider.json).toMatchObject({
      error: 'invalid_scope',
      error_description: expect.stringMatching(/still works/),
    });
    const again = await refreshWith(clientId, tokens.refresh_token);
    expect(again.status).toBe(200);
    expect(again.json.scope).toBe('mcp');
  });

  it('narrows the scope of a refreshed token on request, without narrowing the family', async () => {
    const { clientId, tokens } = await signedIn();
    const narrow = await token({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: tokens.refresh_token,
      scope: 'mcp',
    });
    expect(narrow.json.scope).toBe('mcp');
    expect((await refreshWith(clientId, narrow.json.refresh_token)).json.scope).toBe('mcp offline_access');
  });

  it('revokes the family when the token it replaced comes back after a second rotation, even inside the window', async () => {
    const { clientId, tokens } = await signedIn();
    const second = await refreshWith(clientId, tokens.refresh_token);
    await refreshWith(clientId, second.json.refresh_token);
    expect((await refreshWith(clientId, tokens.refresh_token)).json.error).toBe('invalid_grant');
    expect((await refreshWith(clientId, second.json.refresh_token)).json.error).toBe('invalid_grant');
  });

  it('refuses a refresh token presented by another client, and revokes its family', async () => {
    const { clientId, tokens } = await signedIn();
    const other = await publicClient();
    expect((await refreshWith(other, tokens.refresh_token)).json.error).toBe('invalid_grant');
    expect((await refreshWith(clientId, tokens.refresh_token)).json.error).toBe('invalid_grant');
  });

  it('refuses a refresh token whose family has ended (30 days after sign-in, however often it rotated)', async () => {
    const { clientId, tokens } = await signedIn();
    clockOffsetMs = BridgeLimits.refreshTtlSeconds * 1000;
    try {
      const res = await refreshWith(clientId, tokens.refresh_token);
      expect(res.json).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/expired/),
      });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('issues no refresh token to a client that did not register for them', async () => {
    const { json } = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const { verifier, challenge } = pkce();
    const res = await redeem(json.client_id, await obtainCode(json.client_id, challenge), verifier);
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).toBeUndefined();
    expect(res.json.scope).toBe('mcp');
  });
});

/** A request to the loopback administration of the local stack (`npm run local-user`, `npm run signout -- --local`). */
const admin = (path: string, headers: Record<string, string> = { 'x-mcp-local-admin': '1' }) =>
  fetch(`${stack.issuer}/_local/users/${path}`, { method: 'POST', headers }).then(async (res) => ({
    status: res.status,
    json: (await res.json()) as Record<string, any>,
  }));

describe('the sign-in provider still says yes, and an operator can sign a user out', () => {
  // These rows change the development user's standing: they run against a stack of their own.
  let shared: BridgeStack;
  let ownClockMs = 0;
  beforeAll(async () => {
    shared = stack;
    stack = await startBridgeStack({ now: () => Date.now() + ownClockMs });
  });
  afterAll(async () => {
    await stack.close();
    stack = shared;
  });

  it('refuses the refresh of a user disabled at the provider and ends the family; re-enabled, they sign in again', async () => {
    const { clientId, tokens } = await signedIn();
    expect(await admin('dev-user/disable')).toEqual({
      status: 200,
      json: { subject: 'dev-user', enabled: false },
    });
    try {
      const refused = await refreshWith(clientId, tokens.refresh_token);
      expect(refused.json).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/no longer accepts this user/),
      });
      const signIn = browse(authorizeUrl(goodParams(clientId, pkce().challenge)), {
        until: REDIRECT,
        email: stack.upstream.user.email,
        password: stack.password,
      });
      await expect(signIn).rejects.toMatchObject({
        html: expect.stringContaining('This account is disabled.'),
      });
    } finally {
      await admin('dev-user/enable');
    }
    // The family stays ended; a new sign-in gives a session that refreshes.
    expect((await refreshWith(clientId, tokens.refresh_token)).json.error).toBe('invalid_grant');
    const again = await signedIn();
    expect((await refreshWith(again.clientId, again.tokens.refresh_token)).status).toBe(200);
  });

  it('answers 503 when the provider cannot be reached, and the same token refreshes once it can', async () => {
    const { clientId, tokens } = await signedIn();
    const realFetch = globalThis.fetch;
    const spy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation((input, init) =>
        String(input instanceof Request ? input.url : input).startsWith(`${stack.upstream.issuer}/token`)
          ? Promise.reject(new TypeError('fetch failed'))
          : realFetch(input, init),
      );
    try {
      const down = await refreshWith(clientId, tokens.refresh_token);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(down.json.error).toBe('temporarily_unavailable');
    } finally {
      spy.mockRestore();
    }
    expect((await refreshWith(clientId, tokens.refresh_token)).status).toBe(200);
  });

  it('signs a user out everywhere: their sessions refresh no more, and they can sign in again at once', async () => {
    const first = await signedIn();
    const second = await signedIn();
    const out = await admin('dev-user/signout');
    expect(out.status).toBe(200);
    for (const { clientId, tokens } of [first, second]) {
      const res = await refreshWith(clientId, tokens.refresh_token);
      expect(res.json).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/signed out/),
      });
    }
    ownClockMs = 1_100;
    try {
      const after = await signedIn();
      expect((await refreshWith(after.clientId, after.tokens.refresh_token)).status).toBe(200);
    } finally {
      ownClockMs = 0;
    }
  });

  it.each([
    ['a web page (it sends an Origin)', { 'x-mcp-local-admin': '1', origin: 'https://evil.example' }],
    ['a request without the admin header (a simple cross-site form)', {}],
    [
      'a page that rebound its own name to loopback (its Host)',
      { 'x-mcp-local-admin': '1', host: 'evil.example' },
    ],
  ])('refuses local administration from %s', async (_, headers) => {
    // node:http, not fetch: fetch will not send a Host header of its own choosing.
    const status = await new Promise<number>((resolve, reject) => {
      const { port } = new URL(stack.issuer);
      const path = '/_local/users/dev-user/disable';
      const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    expect(stack.upstream.userEnabled).toBe(true);
  });
});

describe('revocation (RFC 7009)', () => {
  const revokeWith = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${stack.issuer}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    }).then(async (res) => ({ status: res.status, headers: res.headers, text: await res.text() }));

  it('is advertised in the metadata with the client authentication methods it accepts', async () => {
    const metadata = (await (
      await fetch(`${stack.issuer}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      revocation_endpoint: `${stack.issuer}/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    });
  });

  it('revokes a refresh token: 200 with no content, and neither it nor a retry of it refreshes', async () => {
    const { clientId, tokens } = await signedIn();
    const res = await revokeWith({
      client_id: clientId,
      token: tokens.refresh_token,
      token_type_hint: 'refresh_token',
    });
    expect(res).toMatchObject({ status: 200, text: '' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await refreshWith(clientId, tokens.refresh_token)).json.error).toBe('invalid_grant');
  });

  it('revokes the token a refresh just replaced, ending the family (a client signing out mid-refresh)', async () => {
    const { clientId, tokens } = await signedIn();
    const next = await refreshWith(clientId, tokens.refresh_token);
    expect((await revokeWith({ client_id: clientId, token: tokens.refresh_token })).status).toBe(200);
    expect((await refreshWith(clientId, next.json.refresh_token)).json.error).toBe('invalid_grant');
  });

  it('revokes an access token by ending its family; the token itself lasts until it expires (at most an hour)', async () => {
    const { clientId, tokens } = await signedIn();
    const res = await revokeWith({
      client_id: clientId,
      token: tokens.access_token,
      token_type_hint: 'access_token',
    });
    expect(res.status).toBe(200);
    expect((await refreshWith(clientId, tokens.refresh_token)).json.error).toBe('invalid_grant');
    expect((await callTool(tokens.access_token)).status).toBe(200);
  });

  it('finds either kind whatever token_type_hint says (§2.1)', async () => {
    const { clientId, tokens } = await signedIn();
    expect(
      (
        await revokeWith({
          client_id: clientId,
          token: tokens.refresh_token,
          token_type_hint: 'access_token',
        })
      ).status,
    ).toBe(200);
    expect((await refreshWith(clientId, tokens.refresh_token)).json.error).toBe('invalid_grant');
  });

  it("refuses another client's token with invalid_grant and revokes nothing", async () => {
    const { clientId, tokens } = await signedIn();
    const other = await publicClient();
    for (const token of [tokens.refresh_token, tokens.access_token]) {
      const res = await revokeWith({ client_id: other, token });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'invalid_grant' });
    }
    expect((await refreshWith(clientId, tokens.refresh_token)).status).toBe(200);
  });

  it.each([
    ['an unknown refresh token', () => `${'a'.repeat(22)}.${'b'.repeat(43)}`],
    ['a malformed token', () => 'not a token'],
    ['a token signed by someone else', () => 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln'],
  ])('answers %s with 200, as RFC 7009 §2.2 asks for an invalid token', async (_, make) => {
    const clientId = await publicClient();
    expect((await revokeWith({ client_id: clientId, token: make() })).status).toBe(200);
  });

  it('answers an expired access token with 200 and leaves its family alone', async () => {
    const { clientId, tokens } = await signedIn();
    clockOffsetMs = (BridgeLimits.accessTokenTtlSeconds + 60) * 1000;
    try {
      expect((await revokeWith({ client_id: clientId, token: tokens.access_token })).status).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
    expect((await refreshWith(clientId, tokens.refresh_token)).status).toBe(200);
  });

  it.each<[string, Record<string, string>, Record<string, string>, number, string]>([
    ['no token', { client_id: 'x' }, {}, 400, 'invalid_request'],
    ['no client', { token: 'x' }, {}, 401, 'invalid_client'],
    ['a token sent twice', { client_id: 'x', token: 'x' }, { 'x-twice': '1' }, 400, 'invalid_request'],
  ])('answers %s with %s', async (_, form, flags, status, error) => {
    const clientId = await publicClient();
    const filled = { ...form, ...(form.client_id ? { client_id: clientId } : {}) };
    const body = new URLSearchParams(filled).toString() + (flags['x-twice'] ? '&token=y' : '');
    const res = await fetch(`${stack.issuer}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it('refuses a confidential client without its secret, and a body that is not a form', async () => {
    const { json } = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect((await revokeWith({ client_id: json.client_id, token: 'x' })).status).toBe(401);
    const res = await fetch(`${stack.issuer}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'x' }),
    });
    expect(res.status).toBe(400);
  });

  it('answers the CORS preflight of a browser-based client', async () => {
    const res = await fetch(`${stack.issuer}/oauth/revoke`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('strict redirect hosts at registration', () => {
  it.each([
    'https://x;sandbox/cb',
    'https://x,y/cb',
    'https://a_b.example/cb',
    "https://a'b.example/cb",
    'https://ex%61mple.com/cb',
    'https://a.example./cb',
  ])('refuses %s', async (uri) => {
    const res = await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      error: 'invalid_redirect_uri',
      error_description: expect.stringMatching(/host must be a hostname/),
    });
  });

  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://xn--bcher-kva.example/cb',
    'https://[2001:db8::1]/cb',
  ])('accepts %s', async (uri) => {
    expect((await register({ redirect_uris: [uri], token_endpoint_auth_method: 'none' })).status).toBe(201);
  });
});

describe('the consent page tells the truth', () => {
  it('tells a client with refresh tokens that access lasts up to 30 days, and one without that it lasts an hour', async () => {
    const page = async (clientId: string) =>
      (await visit(authorizeUrl(goodParams(clientId, pkce().challenge, { redirect_uri: WEB_REDIRECT }))))
        .body;
    expect(await page(await publicClient())).toContain(
      'It keeps this access for up to 30 days without asking you again',
    );
    const { json } = await register({ redirect_uris: [WEB_REDIRECT], token_endpoint_auth_method: 'none' });
    expect(await page(json.client_id)).toContain('This access lasts one hour');
  });

  it('shows the whole redirect origin, scheme and port included, on a line of its own', async () => {
    const res = await visit(
      authorizeUrl(
        goodParams(await publicClient(), pkce().challenge, {
          redirect_uri: 'http://127.0.0.1:50001/callback',
        }),
      ),
    );
    expect(res.body).toContain(
      '<p class="origin"><code id="redirect-origin">http://127.0.0.1:50001</code></p>',
    );
  });
});

describe('registrations and requests at the limits', () => {
  const limitRedirects = Array.from({ length: 5 }, (_, i) =>
    `http://127.0.0.1:41999/${i}${'x'.repeat(480)}`.slice(0, 512),
  );

  it.each([
    ['control characters', '\u0001'.repeat(40)],
    ['non-ASCII characters', 'é'.repeat(40)],
    ['a line break', 'a\nb'],
  ])('refuses a state with %s (RFC 6749 VSCHAR) with a page', async (_, state) => {
    const clientId = await publicClient();
    const res = await visit(authorizeUrl(goodParams(clientId, pkce().challenge, { state })));
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.body).toMatch(/state/);
  });

  it.each([
    ['letters', 's'.repeat(512)],
    ['characters JSON escapes', '"\\'.repeat(170)],
  ])(
    'completes the flow for a registration at every limit with a 512-character state of %s',
    async (_, state) => {
      const { json } = await register({
        client_name: '\u{1F600}'.repeat(100),
        redirect_uris: limitRedirects,
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      });
      const { verifier, challenge } = pkce();
      const redirect = limitRedirects[4]!;
      const { callback } = await browse(
        authorizeUrl(goodParams(json.client_id, challenge, { redirect_uri: redirect, state })),
        { until: 'http://127.0.0.1:41999/4', email: stack.upstream.user.email, password: stack.password },
      );
      expect(callback.searchParams.get('state')).toBe(state);
      const res = await redeem(json.client_id, callback.searchParams.get('code')!, verifier, redirect);
      expect(res.status).toBe(200);
      expect(res.json.refresh_token).toEqual(expect.any(String));
    },
  );
});

describe('registration floods and bad metadata', () => {
  it.each([
    [
      'too many redirect URIs',
      { redirect_uris: Array.from({ length: 6 }, (_, i) => `https://a.example/${i}`) },
      'invalid_redirect_uri',
    ],
    [
      'an overlong redirect URI',
      { redirect_uris: [`https://a.example/${'x'.repeat(600)}`] },
      'invalid_redirect_uri',
    ],
    ['a non-https redirect URI', { redirect_uris: ['http://app.example.com/cb'] }, 'invalid_redirect_uri'],
    ['a custom-scheme redirect URI', { redirect_uris: ['myapp://callback'] }, 'invalid_redirect_uri'],
    ['a wildcard redirect URI', { redirect_uris: ['https://*.example.com/cb'] }, 'invalid_redirect_uri'],
    ['no redirect URIs', { redirect_uris: [] }, 'invalid_redirect_uri'],
    [
      'an implicit-flow response type',
      { redirect_uris: [REDIRECT], response_types: ['token'] },
      'invalid_client_metadata',
    ],
    [
      'a client_credentials grant',
      { redirect_uris: [REDIRECT], grant_types: ['client_credentials'] },
      'invalid_client_metadata',
    ],
    [
      'private_key_jwt',
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
    ],
  ])('refuses %s', async (_, metadata, error) => {
    const res = await register(metadata);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(error);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses an oversized registration body unread (413)', async () => {
    const res = await fetch(`${stack.issuer}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(20_000) }),
    });
    expect(res.status).toBe(413);
  });

  it('refuses a body nested deeper than the JSON limit with invalid_client_metadata, and keeps registering', async () => {
    const deep = (depth: number) =>
      fetch(`${stack.issuer}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"redirect_uris":["${REDIRECT}"],"x":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      });
    const refused = await deep(8_000);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: 'invalid_client_metadata',
      error_description: 'the body nests arrays and objects more than 100 levels deep',
    });
    // 10,000 levels are 20 KB, past the body limit: refused unread, as any body that large.
    expect((await deep(10_000)).status).toBe(413);
    expect((await deep(99)).status).toBe(201);
  });

  it('caps the client name and keeps control characters out of it', async () => {
    const res = await register({
      redirect_uris: [REDIRECT],
      client_name: `\u202eevil\u0007${'n'.repeat(300)}`,
      token_endpoint_auth_method: 'none',
    });
    expect(res.status).toBe(201);
    expect(res.json.client_name).toHaveLength(100);
    expect(res.json.client_name).toMatch(/^evil/);
  });

  it('stores nothing per registration: the client id carries it, sealed', async () => {
    const a = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    expect(a.status).toBe(201);
    expect(a.json.client_id).toMatch(/^mcpc_[A-Za-z0-9_-]+$/);
    expect(a.json.client_id).not.toContain('127.0.0.1');
  });
});

describe('CSRF on the consent form', () => {
  async function consentForm() {
    const clientId = await publicClient();
    const res = await fetch(authorizeUrl(goodParams(clientId, pkce().challenge)), { redirect: 'manual' });
    return {
      cookie: res.headers.getSetCookie()[0]!.split(';')[0]!,
      transaction: /name="transaction" value="([^"]+)"/.exec(await res.text())![1]!,
    };
  }
  const post = (transaction: string, headers: Record<string, string>) =>
    fetch(`${stack.issuer}/oauth/consent`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ transaction, decision: 'allow' }).toString(),
    });

  it('refuses a cross-site POST (another Origin)', async () => {
    const { cookie, transaction } = await consentForm();
    const res = await post(transaction, { cookie, origin: 'https://evil.example.com' });
    expect(res.status).toBe(403);
  });

  it('refuses a POST flagged cross-site by Fetch Metadata', async () => {
    const { cookie, transaction } = await consentForm();
    const res = await post(transaction, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
  });

  it('refuses a transaction replayed from a browser without its binding cookie', async () => {
    const { transaction } = await consentForm();
    expect((await post(transaction, { origin: stack.issuer })).status).toBe(403);
  });

  it("refuses a transaction posted with another browser's cookie", async () => {
    const attacker = await consentForm();
    const victim = await consentForm();
    const res = await post(attacker.transaction, { cookie: victim.cookie, origin: stack.issuer });
    expect(res.status).toBe(403);
  });

  it('sends a denial back to the client as access_denied with state and iss', async () => {
    const clientId = await publicClient();
    const { callback } = await browse(authorizeUrl(goodParams(clientId, pkce().challenge)), {
      until: REDIRECT,
      decision: 'deny',
    });
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'st-123',
      iss: stack.issuer,
    });
  });

  it('skips the consent page for a client this browser consented to, but not for a new client with the same sign-in', async () => {
    const jar = new CookieJar();
    const clientId = await publicClient();
    const login = { until: REDIRECT, email: stack.upstream.user.email, password: stack.password, jar };
    const first = await browse(authorizeUrl(goodParams(clientId, pkce().challenge)), login);
    expect(first.steps.filter((s) => s.kind === 'consent')).toHaveLength(1);
    const again = await browse(authorizeUrl(goodParams(clientId, pkce().challenge)), login);
    expect(again.steps.map((s) => s.kind)).not.toContain('consent');
    // The upstream session is still live (no sign-in form this time), yet a new client must be consented to.
    expect(again.steps.map((s) => s.kind)).not.toContain('sign-in');
    const other = await publicClient();
    const third = await browse(authorizeUrl(goodParams(other, pkce().challenge)), login);
    expect(third.steps.map((s) => s.kind)).toContain('consent');
  });
});

describe('consent covers the scopes it was shown for', () => {
  it('asks again when a consented client comes back for offline_access, and not for what was consented', async () => {
    const jar = new CookieJar();
    const clientId = await publicClient();
    const login = { until: REDIRECT, email: stack.upstream.user.email, password: stack.password, jar };
    const kinds = async (scope: string) =>
      (await browse(authorizeUrl(goodParams(clientId, pkce().challenge, { scope })), login)).steps.map(
        (s) => s.kind,
      );
    expect(await kinds('mcp')).toContain('consent');
    expect(await kinds('mcp offline_access')).toContain('consent');
    expect(await kinds('mcp')).not.toContain('consent');
    expect(await kinds('mcp offline_access')).not.toContain('consent');
  });
});

describe('audience binding at the MCP endpoint', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (aud: string) => ({
    iss: stack.issuer,
    sub: 'dev-user',
    aud,
    scope: 'mcp',
    iat: now(),
    exp: now() + 300,
  });

  it('answers a bridge-signed token minted for another resource with 401', async () => {
    const foreign = await stack.signer.sign(
      claims('https://other.example.com/mcp'),
      AbortSignal.timeout(1000),
    );
    const res = await callTool(foreign);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(res.json.error.message).toMatch(/audience/);
  });

  it("answers the upstream provider's own ID and access tokens with 401 (no token passthrough)", async () => {
    const { verifier, challenge } = pkce();
    const provider = new URL(`${stack.upstream.issuer}/auth`);
    provider.search = new URLSearchParams({
      response_type: 'code',
      client_id: stack.upstream.clientId,
      redirect_uri: `${stack.issuer}/oauth/callback`,
      scope: 'openid email',
      state: 'upstream-state',
      nonce: 'upstream-nonce',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const { callback } = await browse(provider.href, {
      until: `${stack.issuer}/oauth/callback`,
      email: stack.upstream.user.email,
      password: stack.password,
    });
    const basic = Buffer.from(`${stack.upstream.clientId}:${stack.upstream.clientSecret}`).toString('base64');
    const res = await fetch(`${stack.upstream.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: `${stack.issuer}/oauth/callback`,
        code_verifier: verifier,
      }).toString(),
    });
    const upstreamTokens = (await res.json()) as { id_token: string; access_token: string };
    expect(upstreamTokens.id_token).toEqual(expect.any(String));
    for (const foreign of [upstreamTokens.id_token, upstreamTokens.access_token]) {
      const call = await callTool(foreign);
      expect(call.status).toBe(401);
      expect(call.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('refuses an authorization request for another resource (invalid_target)', async () => {
    const clientId = await publicClient();
    const res = await visit(
      authorizeUrl(goodParams(clientId, pkce().challenge, { resource: 'https://other.example.com/mcp' })),
    );
    expect(linkBack(res.body)!.searchParams.get('error')).toBe('invalid_target');
  });

  it('binds the token to the MCP resource when the client sends no resource (as Claude Code does)', async () => {
    const clientId = await publicClient();
    const { verifier, challenge } = pkce();
    const res = await redeem(
      clientId,
      await obtainCode(clientId, challenge, { resource: undefined }),
      verifier,
    );
    const payload = JSON.parse(Buffer.from(res.json.access_token.split('.')[1], 'base64url').toString());
    expect(payload.aud).toBe(stack.resource);
  });
});

describe('token endpoint errors (RFC 6749 §5.2)', () => {
  it.each<[string, Record<string, string>, number, string]>([
    ['an unsupported grant type', { grant_type: 'password', client_id: 'x' }, 400, 'unsupported_grant_type'],
    ['a request naming no client at all', {}, 401, 'invalid_client'],
  ])('answers %s', async (_, form, status, error) => {
    const clientId = await publicClient();
    const res = await token({ ...form, ...(form.client_id ? { client_id: clientId } : {}) } as Record<
      string,
      string
    >);
    expect(res.status).toBe(status);
    expect(res.json.error).toBe(error);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a wrong secret sent with HTTP Basic with 401 and a Basic challenge', async () => {
    const { json } = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(json.client_secret).toEqual(expect.any(String));
    const basic = Buffer.from(`${encodeURIComponent(json.client_id)}:wrong`).toString('base64');
    const res = await token(
      { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, code_verifier: pkce().verifier },
      { authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });

  it('lets a confidential client redeem with its secret', async () => {
    const { json } = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const { verifier, challenge } = pkce();
    const code = await obtainCode(json.client_id, challenge);
    const res = await token({
      grant_type: 'authorization_code',
      client_id: json.client_id,
      client_secret: json.client_secret,
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
    });
    expect(res.status).toBe(200);
  });

  it('refuses a parameter sent twice', async () => {
    const res = await fetch(`${stack.issuer}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&grant_type=refresh_token',
    });
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });
});
