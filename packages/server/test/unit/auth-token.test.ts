import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authenticator } from '../../src/auth/authenticator.ts';
import { createOAuthAuthenticator } from '../../src/auth/oauth.ts';
import { clientKeyOf, principalKey } from '../../src/auth/principal.ts';
import { startIssuer, type TestIssuer } from '@mcp-lambda/dev/testing';

const RESOURCE = 'https://mcp.example.com/mcp';
const METADATA = 'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';

let issuer: TestIssuer;
let auth: Authenticator;

beforeAll(async () => {
  issuer = await startIssuer({ audience: RESOURCE, scope: 'mcp reports:read' });
  auth = createOAuthAuthenticator({
    issuer: issuer.issuer,
    resource: RESOURCE,
    jwksUri: issuer.jwksUri,
    requiredScopes: ['mcp'],
  });
});
afterAll(() => issuer.close());

const withAuthorization = (authorization?: string) => ({
  path: '/mcp',
  headers: authorization === undefined ? {} : { authorization },
});
const now = () => Math.floor(Date.now() / 1000);

describe('the oauth authenticator', () => {
  it('turns a valid token into a principal with subject, scopes, client and a stable key', async () => {
    const result = await auth.authenticate(withAuthorization(`Bearer ${await issuer.token()}`));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.principal).toMatchObject({
      subject: 'user-1',
      issuer: issuer.issuer,
      clientId: 'test-client',
      scopes: ['mcp', 'reports:read'],
      key: principalKey(issuer.issuer, 'user-1'),
      clientKey: clientKeyOf(principalKey(issuer.issuer, 'user-1'), 'test-client'),
    });
    expect(result.principal.expiresAt).toBeGreaterThan(now());
  });

  it('keys the person alike from every client, and the person as this client apart: client_id, else azp', async () => {
    const principal = async (claims: Record<string, unknown>, omit: string[] = []) => {
      const result = await auth.authenticate(
        withAuthorization(`Bearer ${await issuer.token(claims, { omit })}`),
      );
      if (!result.ok) throw new Error('refused');
      return result.principal;
    };
    const first = await principal({ client_id: 'app-1' });
    const second = await principal({ client_id: 'app-2' });
    const byAzp = await principal({ azp: 'app-2' }, ['client_id']);
    const none = await principal({}, ['client_id']);
    expect(new Set([first.key, second.key, byAzp.key, none.key]).size).toBe(1);
    expect(first.clientKey).not.toBe(second.clientKey);
    expect(byAzp).toMatchObject({ clientId: 'app-2', clientKey: second.clientKey });
    // A token that names no client stays bound to issuer and subject alone.
    expect(none.clientId).toBeUndefined();
    expect(none.clientKey).toBe(none.key);
    expect(first.clientKey).not.toBe(first.key);
  });

  it('derives client keys that no other key or client gives', () => {
    const key = principalKey('https://issuer.example.com', 'alice');
    const keys = [
      key,
      clientKeyOf(key, 'app'),
      clientKeyOf(key, 'app\u0000x'),
      clientKeyOf(key, ''),
      clientKeyOf(principalKey('https://issuer.example.com', 'alice\u0000app'), undefined),
      clientKeyOf(principalKey('https://issuer.example.com', 'bob'), 'app'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(clientKeyOf(key, undefined)).toBe(key);
  });

  it('accepts the scheme name in any case and an audience list that includes this resource', async () => {
    const token = await issuer.token({ aud: ['https://other.example.com', RESOURCE] });
    expect((await auth.authenticate(withAuthorization(`bEaReR ${token}`))).ok).toBe(true);
  });

  it('reads scopes from an scp list when there is no scope string', async () => {
    const token = await issuer.token({ scp: ['mcp', 'reports:read'] }, { omit: ['scope'] });
    const result = await auth.authenticate(withAuthorization(`Bearer ${token}`));
    expect(result.ok && result.principal.scopes).toEqual(['mcp', 'reports:read']);
  });

  it.each([
    ['a year-9999 expiry', () => ({ exp: 253_402_300_799 })],
    ['an expiry 25 hours away', () => ({ exp: now() + 25 * 3600 })],
  ])('refuses %s with 401 naming the accepted lifetime', async (_name, claims) => {
    const result = await auth.authenticate(withAuthorization(`Bearer ${await issuer.token(claims())}`));
    expect(result.ok === false && result.rejection).toMatchObject({
      status: 401,
      message: expect.stringMatching(/valid for longer than the 86400 s/),
    });
  });

  it('accepts an expiry up to 24 hours away, and a longer one when configured', async () => {
    const day = await issuer.token({ exp: now() + 24 * 3600 });
    expect((await auth.authenticate(withAuthorization(`Bearer ${day}`))).ok).toBe(true);
    const week = await issuer.token({ exp: now() + 7 * 86_400 });
    const lenient = createOAuthAuthenticator({
      issuer: issuer.issuer,
      resource: RESOURCE,
      jwksUri: issuer.jwksUri,
      maxTokenLifetimeSeconds: 8 * 86_400,
    });
    expect((await lenient.authenticate(withAuthorization(`Bearer ${week}`))).ok).toBe(true);
  });

  it('refuses a scope claim that is an array (RFC 9068: one space-separated string) with 401', async () => {
    const token = await issuer.token({ scope: ['mcp', 'reports:read'] });
    const result = await auth.authenticate(withAuthorization(`Bearer ${token}`));
    expect(result.ok === false && result.rejection).toMatchObject({
      status: 401,
      message: expect.stringMatching(/"scope" claim must be a space-separated string/),
    });
  });

  it('tolerates a small clock difference on exp and nbf', async () => {
    const token = await issuer.token({ exp: now() - 10, nbf: now() + 10 });
    expect((await auth.authenticate(withAuthorization(`Bearer ${token}`))).ok).toBe(true);
  });

  // One row per way a request can fail to prove who it is (RFC 6750 §3.1, MCP authorization "Token Validation").
  const rejections: {
    name: string;
    authorization: () => Promise<string | undefined>;
    error?: string;
    description?: RegExp;
  }[] = [
    { name: 'no Authorization header', authorization: async () => undefined },
    { name: 'another scheme (Basic)', authorization: async () => 'Basic dXNlcjpwYXNz' },
    { name: 'an empty Bearer credential', authorization: async () => 'Bearer ', error: 'invalid_token' },
    {
      name: 'a credential with characters a token cannot hold',
      authorization: async () => 'Bearer a b',
      error: 'invalid_token',
      description: /malformed/,
    },
    {
      name: 'garbage in place of a JWT',
      authorization: async () => 'Bearer not-a-jwt',
      error: 'invalid_token',
      description: /malformed/,
    },
    {
      name: 'a forged signature',
      authorization: async () => `Bearer ${await issuer.token({}, { foreignKey: true })}`,
      error: 'invalid_token',
      description: /signature is invalid/,
    },
    {
      name: 'another issuer',
      authorization: async () => `Bearer ${await issuer.token({ iss: 'https://evil.example.com' })}`,
      error: 'invalid_token',
      description: /not issued by the authorization server/,
    },
    {
      name: 'another audience',
      authorization: async () => `Bearer ${await issuer.token({ aud: 'https://other.example.com/mcp' })}`,
      error: 'invalid_token',
      description: /audience/,
    },
    {
      name: 'no audience at all',
      authorization: async () => `Bearer ${await issuer.token({}, { omit: ['aud'] })}`,
      error: 'invalid_token',
      description: /"aud" claim/,
    },
    {
      name: 'an expired token (beyond the clock tolerance)',
      authorization: async () => `Bearer ${await issuer.token({ exp: now() - 60 })}`,
      error: 'invalid_token',
      description: /expired/,
    },
    {
      name: 'a token not yet valid (beyond the clock tolerance)',
      authorization: async () => `Bearer ${await issuer.token({ nbf: now() + 120 })}`,
      error: 'invalid_token',
      description: /not valid yet/,
    },
    {
      name: 'a token without expiry',
      authorization: async () => `Bearer ${await issuer.token({}, { omit: ['exp'] })}`,
      error: 'invalid_token',
      description: /"exp" claim/,
    },
    {
      name: 'a token without subject',
      authorization: async () => `Bearer ${await issuer.token({}, { omit: ['sub'] })}`,
      error: 'invalid_token',
      description: /"sub" claim/,
    },
    {
      name: 'alg none (an unsecured JWT)',
      authorization: async () => `Bearer ${issuer.unsecured()}`,
      error: 'invalid_token',
      description: /algorithm/,
    },
    {
      name: 'HS256 keyed with the public key (algorithm confusion)',
      authorization: async () => `Bearer ${await issuer.hmacWithPublicKey()}`,
      error: 'invalid_token',
      description: /algorithm/,
    },
    {
      name: 'a key id the issuer never published',
      authorization: async () => `Bearer ${await issuer.token({}, { kid: 'made-up' })}`,
      error: 'invalid_token',
      description: /unknown key/,
    },
  ];

  it.each(rejections)('answers $name with 401 and a Bearer challenge', async (row) => {
    const result = await auth.authenticate(withAuthorization(await row.authorization()));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.status).toBe(401);
    const challenge = result.rejection.headers['www-authenticate']!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(METADATA);
    expect(challenge).toContain('scope="mcp"');
    if (row.error) expect(challenge).toContain(`error="${row.error}"`);
    // RFC 6750 §3.1: a request without any credential gets no error code.
    else expect(challenge).not.toContain('error=');
    if (row.description) expect(result.rejection.message).toMatch(row.description);
  });

  it('answers a valid token without the required scope with 403 insufficient_scope', async () => {
    const token = await issuer.token({ scope: 'reports:read' });
    const result = await auth.authenticate(withAuthorization(`Bearer ${token}`));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.status).toBe(403);
    expect(result.rejection.headers['www-authenticate']).toBe(
      'Bearer error="insufficient_scope", error_description="This request needs the scope(s): mcp", ' +
        `scope="mcp", ${METADATA}`,
    );
  });

  it('builds the 403 for a tool scope with the required scopes included', () => {
    const rejection = auth.insufficientScope(['reports:write']);
    expect(rejection.status).toBe(403);
    expect(rejection.headers['www-authenticate']).toContain('scope="mcp reports:write"');
    expect(rejection.message).toBe('Forbidden: this request needs the scope(s) mcp, reports:write');
  });

  it('refuses a token signed with an algorithm outside the configured pin', async () => {
    const pinned = createOAuthAuthenticator({
      issuer: issuer.issuer,
      resource: RESOURCE,
      jwksUri: issuer.jwksUri,
      algorithms: ['ES256'],
    });
    const result = await pinned.authenticate(withAuthorization(`Bearer ${await issuer.token()}`));
    expect(result.ok === false && result.rejection.message).toBe(
      'Unauthorized: the access token is signed with an algorithm not accepted here',
    );
  });

  it('never echoes the token back in a rejection', async () => {
    const token = await issuer.token({ aud: 'https://other.example.com/mcp' });
    const result = await auth.authenticate(withAuthorization(`Bearer ${token}`));
    expect(JSON.stringify(result)).not.toContain(token);
    expect(JSON.stringify(result)).not.toContain('other.example.com');
  });
});

describe('oauth authenticator configuration', () => {
  const base = { issuer: 'https://issuer.example.com', resource: RESOURCE };
  it.each([
    { name: 'an http issuer off loopback', options: { ...base, issuer: 'http://issuer.example.com' } },
    { name: 'a resource with a query', options: { ...base, resource: 'https://mcp.example.com/mcp?x=1' } },
    { name: 'a resource with a fragment', options: { ...base, resource: 'https://mcp.example.com/mcp#top' } },
    { name: 'alg none', options: { ...base, algorithms: ['none'] } },
    { name: 'an HMAC algorithm', options: { ...base, algorithms: ['RS256', 'HS256'] } },
    { name: 'an empty algorithm list', options: { ...base, algorithms: [] } },
    { name: 'a scope with a space', options: { ...base, requiredScopes: ['a b'] } },
    { name: 'an http key set URL', options: { ...base, jwksUri: 'http://keys.example.com/jwks.json' } },
    { name: 'a maximum token lifetime under a minute', options: { ...base, maxTokenLifetimeSeconds: 30 } },
    { name: 'an http metadata URL', options: { ...base, metadataUrl: 'http://mcp.example.com/meta' } },
  ])('refuses $name at start-up', ({ options }) => {
    expect(() => createOAuthAuthenticator(options)).toThrow(/^Authorization: /);
  });
});

describe('an endpoint whose URL starts with a stage (REST API on its own URL)', () => {
  const resource = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod/mcp';
  const metadataUrl =
    'https://abc123.execute-api.eu-west-1.amazonaws.com/prod/.well-known/oauth-protected-resource/prod/mcp';
  const staged = createOAuthAuthenticator({ issuer: 'https://issuer.example.com', resource, metadataUrl });

  it('points challenges at the metadata URL it was given, inside the stage', async () => {
    const result = await staged.authenticate(withAuthorization());
    expect(result.ok === false && result.rejection.headers['www-authenticate']).toContain(
      `resource_metadata="${metadataUrl}"`,
    );
  });

  it('serves the document at the path that URL reaches the function with (the stage is not in it)', () => {
    expect(staged.metadataFor('/.well-known/oauth-protected-resource/prod/mcp')?.resource).toBe(resource);
  });
});
