import { describe, expect, it } from 'vitest';
import { isAllowedAddress } from '../../src/address-policy.ts';
import { displayName } from '../../src/client.ts';
import { clientLabel } from '../../src/endpoints.ts';
import { createCookieJar } from '../../src/cookies.ts';
import { cacheSeconds, metadataUrlProblem, parseMetadataDocument } from '../../src/metadata-document.ts';
import { consentPage, escapeHtml, htmlHeaders } from '../../src/pages.ts';
import {
  findRedirectUri,
  redirectHost,
  redirectUriMatches,
  redirectUriProblem,
} from '../../src/redirect-uri.ts';
import { openRegisteredClient, register, validateRegistration } from '../../src/registration.ts';
import { judgeRefresh, type PresentedRefresh } from '../../src/refresh-policy.ts';
import type { FamilyRecord, RefreshFamily } from '../../src/store.ts';
import { grantScopes, refreshedScopes, resourceAccepted } from '../../src/scopes.ts';
import { createSealer } from '../../src/seal.ts';

/** The bridge's pure rules, one row per line of the spec or best practice they implement. */

describe('redirect URIs (OAuth 2.1 §2.3.1, RFC 8252)', () => {
  it.each([
    ['https://claude.ai/api/mcp/auth_callback', undefined],
    ['http://127.0.0.1:33418/callback', undefined],
    ['http://[::1]:8080/cb', undefined],
    ['http://localhost:6274/oauth/callback', undefined],
    ['http://example.com/cb', /https, or http on a loopback host/],
    ['myapp://cb', /https, or http on a loopback host/],
    ['https://a.example.com/cb#x', /fragment/],
    ['https://user:pw@a.example.com/cb', /credentials/],
    ['https://*.example.com/cb', /wildcards/],
    ['/relative', /absolute URL/],
    [' https://a.example.com/cb', /whitespace or control characters/],
    ['https://a.example.com/c\tb', /whitespace or control characters/],
    ['https://a.example.com/c b', /whitespace or control characters/],
    [`https://a.example.com/${'x'.repeat(600)}`, /at most 512/],
    [42, /non-empty string/],
    // Hosts: hostname characters or an IP literal only (the URL parser accepts more, e.g. ';' and ',').
    ['https://x;sandbox/cb', /host must be a hostname/],
    ['https://a,b.example/cb', /host must be a hostname/],
    ['https://a_b.example/cb', /host must be a hostname/],
    ["https://a'b.example/cb", /host must be a hostname/],
    ['https://a!b.example/cb', /host must be a hostname/],
    ['https://a$b.example/cb', /host must be a hostname/],
    ['https://a(b).example/cb', /host must be a hostname/],
    ['https://a=b.example/cb', /host must be a hostname/],
    ['https://a{b}.example/cb', /host must be a hostname/],
    ['https://ex%61mple.com/cb', /host must be a hostname/],
    ['https://-a.example/cb', /host must be a hostname/],
    ['https://a.example./cb', /host must be a hostname/],
    ['https://bücher.example/cb', /punycode/],
    ['https://xn--bcher-kva.example/cb', undefined],
    ['https://APP.example.com/cb', undefined],
    ['https://192.0.2.1:8443/cb', undefined],
    ['https://[2001:db8::1]/cb', undefined],
  ])('%s → %s', (uri, problem) => {
    const result = redirectUriProblem(uri);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toMatch(problem);
  });

  it.each([
    ['https://app.example.com/cb', 'https://app.example.com/cb', true],
    ['https://app.example.com/cb', 'https://app.example.com/cb/', false],
    ['https://app.example.com/cb', 'https://APP.example.com/cb', false],
    ['https://app.example.com:443/cb', 'https://app.example.com/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:2000/cb', true],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:2000/cb', true],
    ['http://localhost:1000/cb', 'http://localhost:9/cb', true],
    ['http://127.0.0.1:1000/cb', 'http://localhost:1000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:1000/cb?x=1', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:1000/other', false],
    ['https://app.example.com:1000/cb', 'https://app.example.com:2000/cb', false],
    // Only the port may differ: other spellings of the same loopback target are not the registered string.
    ['http://127.0.0.1:1000/cb', 'http://127.1:2000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://0x7f000001:2000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1.:2000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:2000/x/../cb', false],
    ['http://127.0.0.1:1000/cb', ' http://127.0.0.1:2000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:2000/c\tb', false],
    ['http://127.0.0.1:1000/cb', 'HTTP://127.0.0.1:2000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:02000/cb', false],
    ['http://127.0.0.1:1000/cb', 'http://127.0.0.1:0/cb', false],
    ['http://localhost/cb', 'http://LOCALHOST:9/cb', false],
    ['http://[::1]/cb', 'http://[0:0:0:0:0:0:0:1]:9/cb', false],
    ['http://[::1]/cb', 'http://[::1]:9/cb', true],
    ['http://127.0.0.1:1000', 'http://127.0.0.1:2000', true],
  ])('registered %s, presented %s → %s', (registered, presented, expected) => {
    expect(redirectUriMatches(registered, presented)).toBe(expected);
  });

  it.each([
    ['https://\u0430pple.com/cb', 'xn--pple-43d.com'], // Cyrillic a: a homograph shows as punycode
    ['https://claude.ai.evil.example/cb', 'claude.ai.evil.example'],
    ['http://127.0.0.1:50001/cb', '127.0.0.1:50001'],
    ['https://app.example.com:8443/cb', 'app.example.com:8443'],
  ])('names the redirect host of %s on the consent page as %s', (uri, host) => {
    expect(redirectHost(uri)).toBe(host);
  });

  it('finds the registered entry a loopback redirect matches', () => {
    expect(findRedirectUri(['https://a.example/cb', 'http://127.0.0.1/cb'], 'http://127.0.0.1:5/cb')).toBe(
      'http://127.0.0.1/cb',
    );
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  const sealer = createSealer('k'.repeat(32));

  it('defaults to client_secret_basic and the authorization_code grant, per RFC 7591 §2', () => {
    const checked = validateRegistration({ redirect_uris: ['https://a.example/cb'] });
    expect(checked).toEqual({
      ok: true,
      registration: { r: ['https://a.example/cb'], a: 'client_secret_basic', g: ['authorization_code'] },
    });
  });

  it('seals the registration into the client_id and opens it again, with a derived secret', () => {
    const checked = validateRegistration({
      redirect_uris: ['https://a.example/cb'],
      client_name: 'A',
      token_endpoint_auth_method: 'client_secret_post',
    });
    if (!checked.ok) throw new Error('expected ok');
    const response = register(checked.registration, sealer, 1_700_000_000);
    expect(response).toMatchObject({
      client_name: 'A',
      client_secret_expires_at: 0,
      client_id_issued_at: 1_700_000_000,
    });
    expect(openRegisteredClient(response.client_id, sealer)).toEqual({
      id: response.client_id,
      kind: 'registered',
      name: 'A',
      redirectUris: ['https://a.example/cb'],
      authMethod: 'client_secret_post',
      grantTypes: ['authorization_code'],
    });
    expect(openRegisteredClient(response.client_id, createSealer('other-key'.repeat(4)))).toBeUndefined();
  });

  it('no longer honours a redirect URI sealed under looser rules (a host with `;`)', () => {
    const sealer = createSealer('k'.repeat(32));
    const looser = {
      r: ['https://x;sandbox/cb', 'https://a.example/cb'],
      a: 'none',
      g: ['authorization_code'],
      t: 1,
    };
    const clientId = `mcpc_${sealer.seal('client-id', looser)}`;
    expect(openRegisteredClient(clientId, sealer)?.redirectUris).toEqual(['https://a.example/cb']);
  });

  it.each([
    [{}, 'invalid_redirect_uri'],
    [[], 'invalid_client_metadata'],
    ['not json', 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a/cb'], grant_types: ['refresh_token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a/cb'], client_name: 7 }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a/cb'], response_types: ['code', 'token'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://a/cb'], token_endpoint_auth_method: 'x' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['myapp://cb'] }, 'invalid_redirect_uri'],
  ])('refuses %j with %s, described in the characters RFC 6749 §5.2 allows', (body, error) => {
    const checked = validateRegistration(body);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.error.error).toBe(error);
    expect(checked.error.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
  });

  it('strips control and bidi characters from display names and caps them', () => {
    expect(displayName('\u202eabc\u0000def', 100)).toBe('abcdef');
    expect(displayName('  ', 100)).toBeUndefined();
    expect(displayName('😀'.repeat(200), 100)).toHaveLength(200);
  });
});

describe('client id metadata documents (pure rules)', () => {
  const id = 'https://client.example.com/oauth/metadata.json';
  it('accepts a normalised https URL with a path', () => expect(metadataUrlProblem(id)).toBeUndefined());
  it.each([
    'https://client.example.com',
    'https://client.example.com/./a.json',
    'https://CLIENT.example.com/a.json',
  ])('refuses %s', (url) => expect(metadataUrlProblem(url)).toEqual(expect.any(String)));
  it('drops grant types it does not offer and keeps the public client public', () => {
    const parsed = parseMetadataDocument(id, {
      client_id: id,
      redirect_uris: ['http://127.0.0.1/cb'],
      grant_types: ['authorization_code', 'implicit', 'refresh_token'],
    });
    expect(parsed).toMatchObject({
      ok: true,
      client: { authMethod: 'none', grantTypes: ['authorization_code', 'refresh_token'] },
    });
  });
  it.each([
    [undefined, 300],
    ['max-age=60', 60],
    ['public, max-age=999999', 86_400],
    ['no-store', 0],
    ['max-age=60, no-cache', 0],
    ['private, max-age=60', 0],
  ])('caches for Cache-Control %s: %s s', (header, seconds) => expect(cacheSeconds(header)).toBe(seconds));
});

describe('how a client is named in logs', () => {
  it('names a metadata document client by its host, cut however long a host the request carried', () => {
    expect(clientLabel('https://client.example.com:8443/c.json')).toBe('client.example.com:8443');
    const long = clientLabel(`https://${'a'.repeat(8_000)}.example/c.json`);
    expect(long).toBe('a'.repeat(259));
    expect(clientLabel('sealed-registration-id')).toMatch(/^registered:[\w-]{12}$/);
  });
});

describe('outbound address policy (SSRF guard)', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd12::1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['2002:a00:1::', false],
    ['224.0.0.1', false],
    ['::7f00:1', false], // IPv4-compatible form of 127.0.0.1
    ['::a9fe:a9fe', false], // IPv4-compatible form of 169.254.169.254
    ['::ffff:0:a9fe:a9fe', false], // IPv4-translated form (RFC 2765)
    ['::ffff:0:a00:1', false],
    ['3fff::1', false], // documentation (RFC 9637)
    ['5f00::1', false], // SRv6 SIDs (RFC 9602), outside global unicast
    ['4000::1', false], // not allocated as global unicast
    ['2a05:d014::1', true],
    ['not an ip', false],
  ])('%s allowed: %s', (address, allowed) => expect(isAllowedAddress(address)).toBe(allowed));

  it('lets loopback through only when told to, and nothing else private', () => {
    expect(isAllowedAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('::1', { allowLoopback: true })).toBe(true);
    expect(isAllowedAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
  });
});

describe('scopes and resources', () => {
  it.each([
    [undefined, ['mcp'], true, ['mcp']],
    ['mcp offline_access', ['mcp'], true, ['mcp', 'offline_access']],
    ['mcp offline_access', ['mcp'], false, ['mcp']],
    ['openid profile', ['mcp', 'reports:read'], true, ['mcp', 'reports:read']],
    ['reports:read unknown', ['mcp', 'reports:read'], true, ['reports:read']],
  ])('requested %s of %j (refresh %s) grants %j', (requested, offered, refresh, granted) => {
    expect(grantScopes(requested, offered, refresh)).toEqual(granted);
  });

  it.each([
    ['https://mcp.example.com/mcp', true],
    ['https://mcp.example.com/mcp/', true],
    ['https://mcp.example.com', true],
    ['https://mcp.example.com/', true],
    ['https://mcp.example.com/mcp-other', false],
    ['https://mcp.example.com/mcp/sub', false],
    ['https://evil.example.com/mcp', false],
    ['https://mcp.example.com/mcp?x', false],
    ['not a url', false],
  ])('accepts resource %s: %s', (requested, accepted) => {
    expect(resourceAccepted(requested, 'https://mcp.example.com/mcp')).toBe(accepted);
  });
});

describe('sealing', () => {
  let clock = 1_000_000_000_000;
  const sealer = createSealer('s'.repeat(32), () => clock);

  it('opens what it sealed, for the same purpose only', () => {
    const token = sealer.seal('transaction', { a: 1 }, 600);
    expect(sealer.open('transaction', token)).toEqual({ a: 1 });
    expect(sealer.open('upstream-state', token)).toBeUndefined();
  });

  it('refuses an expired value and an altered one', () => {
    const token = sealer.seal('consent', 'v', 10);
    clock += 11_000;
    expect(sealer.open('consent', token)).toBeUndefined();
    const fresh = sealer.seal('consent', 'v', 10);
    expect(
      sealer.open('consent', `${fresh.slice(0, -2)}${fresh.endsWith('AA') ? 'BB' : 'AA'}`),
    ).toBeUndefined();
    expect(sealer.open('consent', 'a'.repeat(10_000))).toBeUndefined();
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => createSealer('short')).toThrow(/at least 32 bytes/);
  });
});

describe('cookies and pages', () => {
  it('uses __Host- cookies with Secure over https and plain names on loopback http', () => {
    expect(createCookieJar(true).write('binding', 'v', 600)).toBe(
      '__Host-mcp_bridge_binding=v; Path=/; Max-Age=600; HttpOnly; SameSite=Lax; Secure',
    );
    expect(createCookieJar(false).write('consent', 'v', 0)).toBe(
      'mcp_bridge_consent=v; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
    );
  });

  it('trusts no cookie whose name appears twice', () => {
    const jar = createCookieJar(false);
    expect(jar.read(['mcp_bridge_binding=a', 'mcp_bridge_binding=b'], 'binding')).toBeUndefined();
    expect(jar.read(['x=1; mcp_bridge_binding=a'], 'binding')).toBe('a');
  });

  it('escapes every client-supplied string on the consent page', () => {
    const html = consentPage({
      action: '/oauth/consent',
      clientName: '<script>alert(1)</script>',
      clientIdentity: 'https://c.example/"onmouseover="x',
      redirectOrigin: 'https://a.example',
      refresh: true,
      scopes: ['mcp'],
      transaction: 'abc',
      resourceName: 'Srv',
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain(escapeHtml('<script>alert(1)</script>'));
    expect(html).not.toContain('"onmouseover="');
  });

  it('sends a CSP without script, framing or external assets, and lets forms reach only named origins', () => {
    const csp = htmlHeaders(['https://login.example.com'])['content-security-policy']!;
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self' https:\/\/login\.example\.com; frame-ancestors 'none'; base-uri 'none'$/,
    );
  });

  it.each([
    ['a directive separator', 'https://x;sandbox'],
    ['a source list separator', 'https://a.example https://evil.example'],
    ['a keyword', "'unsafe-inline'"],
    ['a path', 'https://a.example/cb'],
    ['a wildcard', 'https://*.example'],
    ['a comma', 'https://a,b'],
  ])('writes no form target carrying %s into the CSP', (_, target) => {
    const csp = htmlHeaders([target, 'http://127.0.0.1:50001', 'https://[2001:db8::1]:8443'])[
      'content-security-policy'
    ]!;
    expect(csp).toContain(
      "form-action 'self' http://127.0.0.1:50001 https://[2001:db8::1]:8443; frame-ancestors",
    );
    expect(csp.split('; ')).toHaveLength(5);
  });

  it.each([
    [
      'a client that registered for refresh tokens',
      true,
      /up to 30 days without asking you again \(renewing it every hour\)/,
    ],
    [
      'a client without refresh tokens',
      false,
      /This access lasts one hour; after that the application must send you here again/,
    ],
  ])('tells %s how long access lasts', (_, refresh, text) => {
    const html = consentPage({
      action: '/oauth/consent',
      clientName: 'App',
      clientIdentity: 'registered dynamically with this server',
      redirectOrigin: 'https://claude.ai',
      refresh,
      scopes: ['mcp'],
      transaction: 'abc',
      resourceName: 'Srv',
    });
    expect(html).toMatch(text);
    expect(html).toContain('<p class="origin"><code id="redirect-origin">https://claude.ai</code></p>');
  });
});

describe('refresh tokens: rotation, retries and reuse (OAuth 2.1 §4.3.1)', () => {
  const NOW = 1_000_000;
  const family: RefreshFamily = {
    id: 'f',
    clientHash: 'client',
    subject: 'user',
    scope: 'mcp',
    resource: 'https://mcp.example.com/mcp',
    tokenHash: 'T1',
    previousHash: 'T0',
    rotatedAt: NOW - 10,
    issuedAt: NOW - 3_600,
    expiresAt: NOW + 86_400,
  };
  const live: FamilyRecord = { kind: 'family', family };
  const presented = (p: Partial<PresentedRefresh>): PresentedRefresh => ({
    presentedHash: 'T1',
    successorHash: 'T2',
    clientHash: 'client',
    issued: true,
    nowSeconds: NOW,
    signedOutAt: undefined,
    ...p,
  });

  it.each<[string, FamilyRecord, Partial<PresentedRefresh>, string]>([
    ['the current token rotates', live, {}, 'rotate'],
    [
      'the replaced token, its successor still current, inside the window: a retry',
      live,
      { presentedHash: 'T0', successorHash: 'T1' },
      'retry',
    ],
    [
      'the replaced token at the very end of the window: a retry',
      live,
      { presentedHash: 'T0', successorHash: 'T1', nowSeconds: NOW + 50 },
      'retry',
    ],
    [
      'the replaced token after the window: reuse',
      live,
      { presentedHash: 'T0', successorHash: 'T1', nowSeconds: NOW + 51 },
      'reuse',
    ],
    [
      'the replaced token whose successor is not the current one: reuse',
      live,
      { presentedHash: 'T0', successorHash: 'Tx' },
      'reuse',
    ],
    ['an older token of the family: reuse', live, { presentedHash: 'T-1', successorHash: 'T0' }, 'reuse'],
    ['the current token from another client: reuse', live, { clientHash: 'thief' }, 'reuse'],
    [
      'a retry from another client: reuse',
      live,
      { presentedHash: 'T0', successorHash: 'T1', clientHash: 'thief' },
      'reuse',
    ],
    [
      'a token the bridge never issued, naming the family: refused, the family left alone',
      live,
      { presentedHash: 'Tx', issued: false },
      'refuse unknown',
    ],
    [
      'a made-up token from another client: refused, the family left alone',
      live,
      { presentedHash: 'Tx', issued: false, clientHash: 'thief' },
      'refuse unknown',
    ],
    ['the current token from before tags: rotates', live, { issued: false }, 'rotate'],
    [
      'the replaced token from before tags, inside the window: a retry',
      live,
      { presentedHash: 'T0', successorHash: 'T1', issued: false },
      'retry',
    ],
    ['an unknown family', { kind: 'unknown' }, {}, 'refuse unknown'],
    ['a revoked family', { kind: 'revoked' }, {}, 'refuse revoked'],
    ['an expired family', { kind: 'family', family: { ...family, expiresAt: NOW } }, {}, 'refuse expired'],
    [
      'a family begun before its user was signed out',
      live,
      { signedOutAt: NOW - 3_600 },
      'refuse signed out',
    ],
    ['a family begun after its user was signed out', live, { signedOutAt: NOW - 3_601 }, 'rotate'],
  ])('%s', (_, record, p, expected) => {
    const verdict = judgeRefresh(record, presented(p), 60);
    expect(verdict.kind === 'refuse' ? `refuse ${verdict.reason}` : verdict.kind).toBe(expected);
  });

  it.each<[string, string | undefined, string[] | undefined]>([
    ["no scope asked: the family's", undefined, ['mcp', 'offline_access']],
    ["an empty scope: the family's", ' ', ['mcp', 'offline_access']],
    ['a narrower scope', 'mcp', ['mcp']],
    ['a wider scope: refused', 'mcp admin', undefined],
  ])('refreshed scopes: %s', (_, requested, expected) => {
    expect(refreshedScopes('mcp offline_access', requested)).toEqual(expected);
  });
});
