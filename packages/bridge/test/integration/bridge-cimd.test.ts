import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientDirectory } from '../../src/clients.ts';
import { createSealer } from '../../src/seal.ts';
import { startHttpsFixture, type HttpsFixture } from '@mcp-lambda/dev/testing';

/**
 * Client ID Metadata Documents are fetched on a client's say-so: the SSRF rows of the abuse table. The documents
 * are served over https on loopback; the directory may reach loopback only because the test says so, and the
 * rows that check the address guard run with that setting off.
 */

const REDIRECT = 'http://127.0.0.1:41999/callback';
let fixture: HttpsFixture;
let slowTimer: NodeJS.Timeout | undefined;
let trickle: NodeJS.Timeout | undefined;

const doc = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ client_id: id, client_name: 'CIMD client', redirect_uris: [REDIRECT], ...extra });

beforeAll(async () => {
  fixture = await startHttpsFixture((req, res) => {
    const url = `${fixture.origin}${req.url}`;
    const json = (body: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    switch (req.url) {
      case '/good.json':
        return json(doc(url), { 'cache-control': 'max-age=60' });
      case '/uncached.json':
        return json(doc(url), { 'cache-control': 'no-store' });
      case '/oversized.json':
        return json(doc(url, { padding: 'x'.repeat(6000) }));
      case '/chunked-oversized.json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(doc(url).slice(0, -1));
        res.write(`,"padding":"${'x'.repeat(8000)}"`);
        return res.end('}');
      case '/slow.json':
        slowTimer = setTimeout(() => json(doc(url)), 5_000);
        return;
      case '/trickle.json':
        // Headers at once, then the body one byte at a time (slow-loris), never finishing within the limit.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        trickle = setInterval(() => res.write(' '), 100);
        return;
      case '/redirect.json':
        res.writeHead(302, { location: `${fixture.origin}/good.json` });
        return res.end();
      case '/other-id.json':
        return json(doc(`${fixture.origin}/good.json`));
      case '/html.json':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end(doc(url));
      case '/secret.json':
        return json(doc(url, { token_endpoint_auth_method: 'client_secret_basic' }));
      case '/bad-redirect.json':
        return json(doc(url, { redirect_uris: ['http://evil.example.com/cb'] }));
      case '/not-json.json':
        return json('{ nope');
      case '/deep.json':
        return json(doc(url, { x: 'deep' }).replace('"deep"', '['.repeat(2_000) + ']'.repeat(2_000)));
      default:
        res.writeHead(404);
        res.end();
    }
  });
});
afterAll(async () => {
  clearTimeout(slowTimer);
  clearInterval(trickle);
  await fixture?.close();
});

const sealer = createSealer('x'.repeat(32));
const directory = (allowLoopbackMetadata = true) =>
  createClientDirectory({ sealer, allowLoopbackMetadata, metadataCa: fixture.ca });

describe('client id metadata documents', () => {
  it('resolves a good document into a public client', async () => {
    const id = `${fixture.origin}/good.json`;
    const result = await directory().resolve(id);
    expect(result).toEqual({
      ok: true,
      client: {
        id,
        kind: 'metadata-document',
        name: 'CIMD client',
        redirectUris: [REDIRECT],
        authMethod: 'none',
        grantTypes: ['authorization_code'],
      },
    });
  });

  it.each([
    ['oversized, by its declared length', '/oversized.json', /larger than 5120 bytes/],
    ['oversized, streamed without a length', '/chunked-oversized.json', /larger than 5120 bytes/],
    ['a redirect', '/redirect.json', /redirects are not followed/],
    ['its client_id differs from its URL', '/other-id.json', /different client_id/],
    ['not served as JSON', '/html.json', /not served as application\/json/],
    ['not valid JSON', '/not-json.json', /not valid JSON/],
    ['nested deeper than the JSON limit', '/deep.json', /nests more than 100 levels deep/],
    ['it asks for a client secret', '/secret.json', /must use token_endpoint_auth_method "none"/],
    ['a plain http redirect URI off loopback', '/bad-redirect.json', /https, or http on a loopback host/],
    ['missing (404)', '/missing.json', /answered 404/],
  ])('refuses a document: %s', async (_, path, reason) => {
    const result = await directory().resolve(`${fixture.origin}${path}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.description).toMatch(reason);
  });

  it('gives up on a slow document after the time limit', async () => {
    const started = Date.now();
    const result = await directory().resolve(`${fixture.origin}/slow.json`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.description).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it('gives up on a document whose body trickles in (slow-loris) after the time limit', async () => {
    const started = Date.now();
    const result = await directory().resolve(`${fixture.origin}/trickle.json`);
    clearInterval(trickle);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.description).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it.each([
    ['http', 'http://127.0.0.1:1/client.json', /must use https/],
    ['a decimal IPv4 host', 'https://2130706433/client.json', /normalised/],
    ['an octal IPv4 host', 'https://0177.0.0.1/client.json', /normalised/],
    ['a hexadecimal IPv4 host', 'https://0x7f.0.0.1/client.json', /normalised/],
    ['an upper-case host', 'https://Client.Example.com/c.json', /normalised/],
    ['a root path', `https://127.0.0.1:1/`, /must have a path/],
    ['a query', 'https://client.example.com/c.json?x=1', /must not contain a query/],
    ['a fragment', 'https://client.example.com/c.json#x', /must not contain a fragment/],
    ['credentials', 'https://user:pw@client.example.com/c.json', /must not contain credentials/],
    ['dot segments', 'https://client.example.com/a/../c.json', /dot segments|normalised/],
    ['a host past the length limit', `https://${'a'.repeat(600)}.example/c.json`, /at most 512 characters/],
  ])('refuses a client_id URL with %s before any fetch', async (_, id, reason) => {
    const result = await directory().resolve(id);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.description).toMatch(reason);
  });

  it.each([
    ['a loopback address', () => `${fixture.origin}/good.json`],
    ['a name resolving to loopback', () => `${fixture.origin.replace('127.0.0.1', 'localhost')}/good.json`],
    ['a private address', () => 'https://10.1.2.3/client.json'],
    ['a link-local (instance metadata) address', () => 'https://169.254.169.254/latest/meta-data.json'],
    ['a unique-local IPv6 address', () => 'https://[fd00::1]/client.json'],
    ['an IPv4-mapped IPv6 address', () => 'https://[::ffff:7f00:1]/client.json'],
    ['the unspecified IPv4 address', () => 'https://0.0.0.0/client.json'],
    ['the unspecified IPv6 address', () => 'https://[::]/client.json'],
    ['an IPv6 unique-local EC2 metadata address', () => 'https://[fd00:ec2::254]/latest/meta-data.json'],
    ['an IPv4-compatible IPv6 address', () => 'https://[::a9fe:a9fe]/latest/meta-data.json'],
    ['an IPv4-translated IPv6 address', () => 'https://[::ffff:0:7f00:1]/client.json'],
  ])('refuses a document on %s when loopback is not allowed (deployed setting)', async (_, id) => {
    const result = await directory(false).resolve(id());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem.description).toMatch(/private or reserved address/);
  });

  it('never fetches a document from loopback named with a trailing dot (localhost.), when loopback is not allowed', async () => {
    const before = fixture.hits.get('/good.json') ?? 0;
    const result = await directory(false).resolve(
      `${fixture.origin.replace('127.0.0.1', 'localhost.')}/good.json`,
    );
    // Refused as loopback where the name resolves, or not found where it does not: never read either way.
    expect(result).toMatchObject({ ok: false, problem: { error: 'invalid_client' } });
    expect(fixture.hits.get('/good.json') ?? 0).toBe(before);
  });

  it('caches a document per its Cache-Control, and refetches one marked no-store', async () => {
    const dir = directory();
    for (let i = 0; i < 3; i += 1) await dir.resolve(`${fixture.origin}/good.json`);
    for (let i = 0; i < 3; i += 1) await dir.resolve(`${fixture.origin}/uncached.json`);
    expect(fixture.hits.get('/uncached.json')).toBe(3);
    const before = fixture.hits.get('/good.json') ?? 0;
    await dir.resolve(`${fixture.origin}/good.json`);
    expect(fixture.hits.get('/good.json')).toBe(before);
  });

  it('shares one fetch between concurrent requests for the same document', async () => {
    const dir = directory();
    const id = `${fixture.origin}/uncached.json`;
    const before = fixture.hits.get('/uncached.json') ?? 0;
    await Promise.all([dir.resolve(id), dir.resolve(id), dir.resolve(id)]);
    expect(fixture.hits.get('/uncached.json')).toBe(before + 1);
  });
});
