import { afterEach, describe, expect, it } from 'vitest';
import { discoverJwksUri, metadataCandidates } from '../../src/auth/discovery.ts';
import { createOAuthAuthenticator, type OAuthOptions } from '../../src/auth/oauth.ts';
import type { FetchLike } from '../../src/auth/remote-json.ts';
import { startIssuer, type TestIssuer } from '@mcp-lambda/dev/testing';

const RESOURCE = 'https://mcp.example.com/mcp';
let issuer: TestIssuer | undefined;
afterEach(async () => {
  await issuer?.close();
  issuer = undefined;
});

/** A test issuer, an authenticator on a controllable clock, and a helper that presents one token. */
async function setup(
  options: Partial<OAuthOptions> = {},
  keys: Partial<NonNullable<OAuthOptions['keys']>> = {},
) {
  issuer = await startIssuer({ audience: RESOURCE });
  const clock = { now: Date.now() };
  const auth = createOAuthAuthenticator({
    issuer: issuer.issuer,
    resource: RESOURCE,
    jwksUri: issuer.jwksUri,
    ...options,
    keys: { now: () => clock.now, ...keys },
  });
  const present = async (token: string) =>
    auth.authenticate({ path: '/mcp', headers: { authorization: `Bearer ${token}` } });
  return { issuer, auth, clock, present };
}

describe('the issuer key cache', () => {
  it('fetches the key set lazily, on the first token, and reuses it for later tokens', async () => {
    const { issuer, present } = await setup();
    expect(issuer.hits.jwks).toBe(0);
    for (let i = 0; i < 5; i++)
      expect((await present(await issuer.token({ sub: `user-${i}` }))).ok).toBe(true);
    expect(issuer.hits.jwks).toBe(1);
  });

  it('shares one fetch between concurrent first requests', async () => {
    const { issuer, present } = await setup();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => issuer.token()));
    const results = await Promise.all(tokens.map(present));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(issuer.hits.jwks).toBe(1);
  });

  it('refetches once when a token names a key published after the last fetch (rotation)', async () => {
    const { issuer, clock, present } = await setup();
    expect((await present(await issuer.token())).ok).toBe(true);
    await issuer.rotate();
    clock.now += 31_000;
    expect((await present(await issuer.token())).ok).toBe(true);
    expect(issuer.hits.jwks).toBe(2);
  });

  it('lets a flood of made-up key ids cause at most one fetch per refetch interval (5 s)', async () => {
    const { issuer, clock, present } = await setup();
    expect((await present(await issuer.token())).ok).toBe(true);
    clock.now += 31_000;
    for (let i = 0; i < 20; i++) {
      const result = await present(await issuer.token({}, { kid: `bogus-${i}` }));
      expect(result.ok === false && result.rejection.status).toBe(401);
    }
    expect(issuer.hits.jwks).toBe(2);
    clock.now += 4_000;
    await present(await issuer.token({}, { kid: 'bogus-late' }));
    expect(issuer.hits.jwks).toBe(2);
    clock.now += 1_500;
    await present(await issuer.token({}, { kid: 'bogus-after-interval' }));
    expect(issuer.hits.jwks).toBe(3);
  });

  it('never refetches again for a key id that was still unknown after a refetch, for 30 s', async () => {
    const { issuer, clock, present } = await setup();
    expect((await present(await issuer.token())).ok).toBe(true);
    for (let i = 0; i < 5; i++) {
      clock.now += 6_000;
      await present(await issuer.token({}, { kid: 'junk' }));
    }
    expect(issuer.hits.jwks).toBe(2);
    clock.now += 6_000;
    await present(await issuer.token({}, { kid: 'junk' }));
    expect(issuer.hits.jwks).toBe(3);
  });

  it.each([
    ['another audience', { aud: 'https://elsewhere.example.com/mcp' }],
    ['another issuer', { iss: 'https://evil.example.com' }],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 600 }],
    ['a token valid for a year', { exp: Math.floor(Date.now() / 1000) + 365 * 86_400 }],
  ])('a made-up key id on %s causes no fetch at all', async (_name, claims) => {
    const { issuer, clock, present } = await setup();
    expect((await present(await issuer.token())).ok).toBe(true);
    for (let i = 0; i < 5; i++) {
      clock.now += 10_000;
      const result = await present(await issuer.token(claims, { kid: `bogus-${i}` }));
      expect(result.ok).toBe(false);
    }
    expect(issuer.hits.jwks).toBe(1);
  });

  it('under a flood of made-up key ids, a rotated key is accepted within the refetch interval', async () => {
    const { issuer, clock, present } = await setup();
    expect((await present(await issuer.token())).ok).toBe(true);
    clock.now += 31_000;
    await present(await issuer.token({}, { kid: 'bogus-just-before' }));
    await issuer.rotate();
    const rotated = await issuer.token();
    const seen: boolean[] = [];
    for (let waited = 0; waited <= 5_000; waited += 1_000) {
      await present(await issuer.token({}, { kid: `bogus-${waited}` }));
      seen.push((await present(rotated)).ok);
      clock.now += 1_000;
    }
    // Refused while the interval after the junk-triggered fetch lasts, accepted from the first fetch after it.
    expect(seen.indexOf(true)).toBeGreaterThan(0);
    expect(seen.slice(seen.indexOf(true)).every(Boolean)).toBe(true);
    expect(seen.indexOf(true)).toBeLessThanOrEqual(5);
  });

  it('refreshes keys older than their maximum age and keeps the old ones when the issuer is down', async () => {
    const { issuer, clock, present } = await setup({}, { maxAgeMs: 60_000 });
    expect((await present(await issuer.token())).ok).toBe(true);
    clock.now += 61_000;
    expect((await present(await issuer.token())).ok).toBe(true);
    expect(issuer.hits.jwks).toBe(2);
    issuer.setAvailable(false);
    clock.now += 61_000;
    expect((await present(await issuer.token())).ok).toBe(true);
    expect(issuer.hits.jwks).toBe(3);
  });

  it('answers 503 with Retry-After while no keys can be fetched, and retries after a pause', async () => {
    const { issuer, clock, present } = await setup({}, { retryMs: 2_000 });
    issuer.setAvailable(false);
    const first = await present(await issuer.token());
    expect(first.ok === false && first.rejection).toMatchObject({
      status: 503,
      headers: { 'retry-after': '5' },
      cause: `GET ${issuer.jwksUri} answered 503`,
    });
    const second = await present(await issuer.token());
    expect(second.ok === false && second.rejection.status).toBe(503);
    expect(issuer.hits.jwks).toBe(1);
    issuer.setAvailable(true);
    clock.now += 2_000;
    expect((await present(await issuer.token())).ok).toBe(true);
    expect(issuer.hits.jwks).toBe(2);
  });

  it('answers 503 before the invocation deadline while the issuer never answers, then recovers', async () => {
    const { issuer } = await setup();
    const token = await issuer.token();
    // An issuer that accepts the request and never answers: only a signal ends the wait.
    let answering = false;
    const hanging: FetchLike = (url, init) =>
      answering
        ? fetch(url, init)
        : new Promise((_resolve, reject) =>
            init.signal.addEventListener('abort', () => reject(init.signal.reason)),
          );
    const auth = createOAuthAuthenticator({
      issuer: issuer.issuer,
      resource: RESOURCE,
      jwksUri: issuer.jwksUri,
      // The fetch's own limit is later than the request's deadline: the deadline must end the wait.
      keys: { fetch: hanging, timeoutMs: 1_000, retryMs: 0 },
    });
    const present = (deadline?: number) =>
      auth.authenticate({
        path: '/mcp',
        headers: { authorization: `Bearer ${token}` },
        ...(deadline !== undefined ? { deadline } : {}),
      });
    const deadline = Date.now() + 1_300;
    const result = await present(deadline);
    expect(result.ok === false && result.rejection.status).toBe(503);
    expect(Date.now()).toBeLessThan(deadline);
    answering = true;
    // The stuck fetch ends at its own limit; the next token fetches again and passes.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await present()).ok).toBe(true);
  });

  it('discovers the key set URL from the issuer metadata when none is configured', async () => {
    const { issuer, present } = await setup({ jwksUri: undefined });
    expect((await present(await issuer.token())).ok).toBe(true);
    expect((await present(await issuer.token())).ok).toBe(true);
    expect(issuer.hits).toEqual({ metadata: 1, jwks: 1 });
  });
});

describe('issuer metadata discovery', () => {
  it.each([
    {
      issuer: 'https://auth.example.com',
      candidates: [
        'https://auth.example.com/.well-known/oauth-authorization-server',
        'https://auth.example.com/.well-known/openid-configuration',
      ],
    },
    {
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC',
      candidates: [
        'https://cognito-idp.eu-west-1.amazonaws.com/.well-known/oauth-authorization-server/eu-west-1_AbC',
        'https://cognito-idp.eu-west-1.amazonaws.com/.well-known/openid-configuration/eu-west-1_AbC',
        'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC/.well-known/openid-configuration',
      ],
    },
  ])(
    'looks for the metadata of $issuer where RFC 8414 and OpenID Connect put it',
    ({ issuer, candidates }) => {
      expect(metadataCandidates(issuer)).toEqual(candidates);
    },
  );

  /** A fetch that serves fixed documents by URL. */
  const serve =
    (documents: Record<string, unknown>): FetchLike =>
    async (url) =>
      url in documents
        ? new Response(JSON.stringify(documents[url]), { status: 200 })
        : new Response('{}', { status: 404 });
  const ISSUER = 'https://auth.example.com/tenant';

  it('falls through to the OpenID Connect location when RFC 8414 has nothing', async () => {
    const fetch = serve({
      'https://auth.example.com/tenant/.well-known/openid-configuration': {
        issuer: ISSUER,
        jwks_uri: 'https://auth.example.com/tenant/keys',
      },
    });
    await expect(discoverJwksUri(ISSUER, { fetch })).resolves.toBe('https://auth.example.com/tenant/keys');
  });

  it.each([
    {
      name: 'names another issuer',
      document: { issuer: 'https://evil.example.com', jwks_uri: 'https://a/k' },
    },
    { name: 'has no jwks_uri', document: { issuer: ISSUER } },
    {
      name: 'puts its keys on plain http',
      document: { issuer: ISSUER, jwks_uri: 'http://auth.example.com/k' },
    },
  ])('refuses metadata that $name', async ({ document }) => {
    const fetch = serve({
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant': document,
    });
    await expect(discoverJwksUri(ISSUER, { fetch })).rejects.toThrow(
      /No usable authorization server metadata/,
    );
  });

  it('refuses a document larger than the size limit', async () => {
    const fetch: FetchLike = async () => new Response('x'.repeat(2048), { status: 200 });
    await expect(discoverJwksUri(ISSUER, { fetch, maxBytes: 1024 })).rejects.toThrow(/more than 1024 bytes/);
  });
});
