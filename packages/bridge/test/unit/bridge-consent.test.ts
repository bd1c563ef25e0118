import { describe, expect, it } from 'vitest';
import { silentLogger } from '@mcp-lambda/server/lambda';
import { createClientDirectory } from '../../src/clients.ts';
import { consent } from '../../src/consent.ts';
import { createCookieJar } from '../../src/cookies.ts';
import { bridgeUrls, type BridgeDeps, type RequestNote } from '../../src/endpoints.ts';
import { sha256 } from '../../src/http.ts';
import type { MetadataFetchResult } from '../../src/metadata-fetch.ts';
import { createSealer } from '../../src/seal.ts';
import type { Transaction } from '../../src/transaction.ts';

/**
 * The consent form looks its client up again (a metadata document may have dropped the redirect URI since the page
 * was shown). A document that cannot be fetched at that moment is a temporary problem, said as one: never as a
 * client that is no longer registered.
 */

const ISSUER = 'http://127.0.0.1:9';
const CLIENT = 'https://client.example.com/client.json';
const REDIRECT = 'http://127.0.0.1:41999/callback';
const BINDING = 'b'.repeat(43);

/** The client's document as it answers each fetch in turn (never cached: `no-store`). */
function directoryAnswering(...answers: MetadataFetchResult[]) {
  const sealer = createSealer('x'.repeat(32));
  const clients = createClientDirectory({ sealer, fetchDocument: async () => answers.shift()! });
  return { sealer, clients };
}

const served: MetadataFetchResult = {
  ok: true,
  status: 200,
  cacheControl: 'no-store',
  body: { client_id: CLIENT, client_name: 'Consent client', redirect_uris: [REDIRECT] },
};

/** Posts the consent form (Allow) for a transaction of `CLIENT`, from the browser it was shown in. */
async function allow(answer: MetadataFetchResult) {
  const { sealer, clients } = directoryAnswering(answer);
  const cookies = createCookieJar(false);
  const transaction: Transaction = {
    c: CLIENT,
    r: REDIRECT,
    ch: 'c'.repeat(43),
    sc: 'mcp',
    rt: false,
    b: sha256(BINDING),
  };
  const deps = {
    urls: bridgeUrls(ISSUER),
    sealer,
    cookies,
    clients,
    now: () => 1_000,
  } as Partial<BridgeDeps>;
  const note: RequestNote = {};
  const response = await consent(
    {
      method: 'POST',
      path: '/oauth/consent',
      headers: { origin: ISSUER, 'content-type': 'application/x-www-form-urlencoded' },
      cookies: [`${cookies.name('binding')}=${BINDING}`],
      body: new URLSearchParams({
        transaction: sealer.seal('transaction', transaction, 600),
        decision: 'allow',
      }).toString(),
    },
    { requestId: 'consent', log: silentLogger },
    deps as BridgeDeps,
    note,
  );
  return { response, note };
}

describe('the consent form, when the client is looked up again', () => {
  it('says a document that could not be fetched just now could not be verified, not that it is gone', async () => {
    const { response, note } = await allow({
      ok: false,
      reason: 'fetching the client metadata document timed out',
      errorType: 'timeout',
    });
    expect(response.status).toBe(400);
    expect(response.body).toContain('The application could not be verified');
    expect(response.body).toContain('timed out');
    expect(response.body).not.toContain('no longer registered');
    expect(note).toMatchObject({
      error: 'invalid_client',
      reason: 'fetching the client metadata document timed out',
    });
  });

  it('still says a document that dropped the redirect URI is no longer registered for it', async () => {
    const { response, note } = await allow({
      ...served,
      body: { client_id: CLIENT, redirect_uris: ['http://127.0.0.1:42000/elsewhere'] },
    });
    expect(response.status).toBe(400);
    expect(response.body).toContain('no longer registered');
    expect(note.error).toBe('invalid_request');
  });
});
