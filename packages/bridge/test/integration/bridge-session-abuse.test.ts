import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BridgeLimits } from '../../src/index.ts';
import { startBridgeStack, type BridgeStack, browse, pkce } from '@mcp-lambda/dev/testing';

/**
 * The abuse table of a sign-in's lifetime, over real HTTP against the local bridge and provider: each row is one way
 * a client, another client, someone who saw a token, or an operator's timing tries to keep or end a session it
 * should not. (The rows of the sign-in itself are in bridge-abuse.test.ts.)
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

async function post(path: string, form: Record<string, string>) {
  const res = await fetch(`${stack.issuer}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

async function publicClient(): Promise<string> {
  const res = await fetch(`${stack.issuer}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Session abuse test',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    }),
  });
  return ((await res.json()) as { client_id: string }).client_id;
}

/** The browser leg up to the code the client receives. */
async function obtainCode(clientId: string, challenge: string): Promise<string> {
  const url = new URL(`${stack.issuer}/oauth/authorize`);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'mcp offline_access',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
  const { callback } = await browse(url.href, {
    until: REDIRECT,
    email: stack.upstream.user.email,
    password: stack.password,
  });
  return callback.searchParams.get('code')!;
}

const redeem = (clientId: string, code: string, verifier: string) =>
  post('/oauth/token', {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });

const refreshWith = (clientId: string, refreshToken: string) =>
  post('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });

/** A client with a refresh token, signed in. */
async function signedIn() {
  const clientId = await publicClient();
  const { verifier, challenge } = pkce();
  const tokens = await redeem(clientId, await obtainCode(clientId, challenge), verifier);
  expect(tokens.status).toBe(200);
  return { clientId, tokens: tokens.json };
}

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, any>;

describe('a family id is no key to the family', () => {
  it("refuses a refresh token made up from an access token's sid, from any client, and the session lives on", async () => {
    const { clientId, tokens } = await signedIn();
    const { sid } = claimsOf(tokens.access_token);
    expect(tokens.refresh_token.startsWith(`${sid}.`)).toBe(true);
    const forged = `${sid}.${'A'.repeat(43)}`;
    for (const presenter of [await publicClient(), clientId]) {
      const res = await refreshWith(presenter, forged);
      expect(res.json).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringMatching(/invalid/),
      });
    }
    expect((await refreshWith(clientId, tokens.refresh_token)).status).toBe(200);
  });

  it('still ends the family when a genuine token of it, rotated out long ago, comes back from another client', async () => {
    const { clientId, tokens } = await signedIn();
    const second = await refreshWith(clientId, tokens.refresh_token);
    const third = await refreshWith(clientId, second.json.refresh_token);
    expect(third.status).toBe(200);
    const stolen = await refreshWith(await publicClient(), tokens.refresh_token);
    expect(stolen.json.error_description).toMatch(/revoked/);
    expect((await refreshWith(clientId, third.json.refresh_token)).json.error).toBe('invalid_grant');
  });
});

describe('a sign-out everywhere and the sign-ins around it', () => {
  // These rows sign the development user out: they run against a stack of their own.
  let shared: BridgeStack;
  beforeAll(async () => {
    shared = stack;
    stack = await startBridgeStack({ now: () => Date.now() + clockOffsetMs });
  });
  afterAll(async () => {
    await stack.close();
    stack = shared;
  });

  it('refuses a code from a sign-in finished before the sign-out and redeemed after it', async () => {
    const clientId = await publicClient();
    const { verifier, challenge } = pkce();
    const code = await obtainCode(clientId, challenge);
    await stack.signOut('dev-user');
    const res = await redeem(clientId, code, verifier);
    expect(res.json).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/signed out/),
    });
    expect(res.json.access_token).toBeUndefined();
  });
});

describe('the end of a family is the end of its access', () => {
  it('gives the last refresh before the 30 days an access token that ends with the family, not an hour later', async () => {
    const { clientId, tokens } = await signedIn();
    const familyEnds = claimsOf(tokens.access_token).iat + BridgeLimits.refreshTtlSeconds;
    clockOffsetMs = (BridgeLimits.refreshTtlSeconds - 100) * 1000;
    try {
      for (const refreshToken of [tokens.refresh_token, tokens.refresh_token]) {
        const last = await refreshWith(clientId, refreshToken);
        expect(last.status).toBe(200);
        const { exp, iat } = claimsOf(last.json.access_token);
        expect(exp).toBeLessThanOrEqual(familyEnds + 1);
        expect(last.json.expires_in).toBe(exp - iat);
      }
    } finally {
      clockOffsetMs = 0;
    }
  });
});

/**
 * A provider that rotates its refresh tokens and refuses a used one (Cognito with rotation and no grace period,
 * Keycloak's "revoke refresh token"), answering as `script` decides; other requests go through.
 */
function rotatingProvider(script: (call: number, reused: boolean) => Promise<void>) {
  const realFetch = globalThis.fetch;
  const used = new Set<string>();
  let calls = 0;
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.startsWith(`${stack.upstream.issuer}/token`)) return realFetch(input, init);
    const presented = new URLSearchParams(String(init?.body)).get('refresh_token')!;
    const reused = used.has(presented);
    used.add(presented);
    await script(calls++, reused);
    const body = reused ? { error: 'invalid_grant' } : { access_token: 'a', refresh_token: `${presented}+` };
    return Response.json(body, { status: reused ? 400 : 200 });
  });
}

describe('the provider re-check when refreshes overlap', () => {
  it('keeps the user signed in when a retry, sent while the provider was slow to answer the first, finds the provider token used', async () => {
    const { clientId, tokens } = await signedIn();
    let firstArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    let retryArrived!: () => void;
    const retried = new Promise<void>((resolve) => (retryArrived = resolve));
    let first: Promise<Awaited<ReturnType<typeof refreshWith>>> | undefined;
    const spy = rotatingProvider(async (call) => {
      if (call === 0) {
        firstArrived();
        await retried;
      } else if (call === 1) {
        retryArrived();
        await first;
      }
    });
    try {
      first = refreshWith(clientId, tokens.refresh_token);
      await arrived;
      const retry = await refreshWith(clientId, tokens.refresh_token);
      const answered = await first;
      expect([answered.status, retry.status]).toEqual([200, 200]);
      expect(retry.json.refresh_token).toBe(answered.json.refresh_token);
      expect((await refreshWith(clientId, answered.json.refresh_token)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
  });
});
