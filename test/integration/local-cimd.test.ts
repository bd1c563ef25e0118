import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsFixture, type HttpsFixture, pkce } from '@mcp-lambda/dev/testing';
import { start, ending } from '../support/npm-start.ts';

// A Client ID Metadata Document on this machine, against `MCP_AUTH_MODE=oauth npm start`, exactly as README says
// it takes: the document served over https on loopback (a client_id URL is https by the spec), the certificate's
// CA trusted through Node's own NODE_EXTRA_CA_CERTS, and loopback allowed (BRIDGE_CIMD_ALLOW_LOOPBACK, true by
// default locally).

const REDIRECT = 'http://127.0.0.1:41999/callback';
let fixture: HttpsFixture;
let caFile: string;

beforeAll(async () => {
  fixture = await startHttpsFixture((req, res) => {
    if (req.url !== '/client.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        client_id: `${fixture.origin}/client.json`,
        client_name: 'Local CIMD client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  caFile = join(mkdtempSync(join(tmpdir(), 'local-cimd-')), 'ca.pem');
  writeFileSync(caFile, fixture.ca);
});
afterAll(() => fixture?.close());

/** The bridge's answer to an authorization request from the document's client. */
async function authorize(mcp: string): Promise<{ status: number; page: string }> {
  const origin = new URL(mcp).origin;
  const query = new URLSearchParams({
    client_id: `${fixture.origin}/client.json`,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    resource: mcp,
    state: 'local',
  });
  const res = await fetch(`${origin}/oauth/authorize?${query}`, { redirect: 'manual' });
  return { status: res.status, page: await res.text() };
}

/** Runs `npm start` with local authorization and `env`, and asks it to authorize the document's client. */
async function authorizeWith(env: Record<string, string>) {
  let answer: { status: number; page: string } | undefined;
  const run = await start({ PORT: '0', MCP_AUTH_MODE: 'oauth', ...env }, async (mcp) => {
    answer = await authorize(mcp);
  });
  expect(run.code, ending(run)).toBe(0);
  return answer!;
}

describe('npm start with a Client ID Metadata Document on loopback', () => {
  it('with its CA in NODE_EXTRA_CA_CERTS the bridge reads it and shows the consent page', async () => {
    const answer = await authorizeWith({ NODE_EXTRA_CA_CERTS: caFile });
    expect(answer.status).toBe(200);
    expect(answer.page).toContain('Local CIMD client');
  });

  it('without it the certificate is not trusted: the page says the metadata could not be used', async () => {
    const answer = await authorizeWith({});
    expect(answer.status).toBe(400);
    expect(answer.page).toContain('could not be verified');
    expect(answer.page).not.toContain('Local CIMD client');
  });

  it('BRIDGE_CIMD_ALLOW_LOOPBACK=false refuses documents on loopback, as the deployed bridge does', async () => {
    const answer = await authorizeWith({ NODE_EXTRA_CA_CERTS: caFile, BRIDGE_CIMD_ALLOW_LOOPBACK: 'false' });
    expect(answer.status).toBe(400);
    expect(answer.page).not.toContain('Local CIMD client');
  });
});
