import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsFixture, type HttpsFixture } from '@mcp-lambda/dev/testing';
import { fetchMetadataDocument } from '../../src/metadata-fetch.ts';

/**
 * What a Client ID Metadata Document fetch comes to, as its trace span records it: the HTTP status when a response
 * arrived, and a fixed word for why it failed (never the reason's text, nor anything the remote party chose).
 */
let fixture: HttpsFixture;
beforeAll(async () => {
  fixture = await startHttpsFixture((req, res) => {
    if (req.url === '/client.json')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"client_id":"x"}');
    if (req.url === '/html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>');
    if (req.url === '/moved') return res.writeHead(302, { location: '/client.json' }).end();
    res.writeHead(404).end();
  });
});
afterAll(() => fixture?.close());

const fetchAt = (path: string) =>
  fetchMetadataDocument(`${fixture.origin}${path}`, {
    timeoutMs: 5_000,
    maxBytes: 5_120,
    allowLoopback: true,
    ca: fixture.ca,
  });

describe('a client metadata document fetch', () => {
  it('carries the status of a document served', async () => {
    expect(await fetchAt('/client.json')).toMatchObject({ ok: true, status: 200, body: { client_id: 'x' } });
  });

  it('names why it failed with a fixed word, beside the status when a response arrived', async () => {
    expect(await fetchAt('/missing')).toMatchObject({ ok: false, status: 404, errorType: '404' });
    expect(await fetchAt('/moved')).toMatchObject({ ok: false, status: 302, errorType: '302' });
    expect(await fetchAt('/html')).toMatchObject({ ok: false, status: 200, errorType: 'not_json' });
    const refused = await fetchMetadataDocument('https://10.0.0.1/client.json', {
      timeoutMs: 1_000,
      maxBytes: 5_120,
    });
    expect(refused).toEqual({
      ok: false,
      reason: 'the client_id URL points at a private or reserved address',
      errorType: 'refused_address',
    });
  });
});
