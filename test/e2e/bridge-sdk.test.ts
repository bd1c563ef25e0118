import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError as Unauthorized2,
} from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBridgeStack,
  type BridgeStack,
  startHttpsFixture,
  type HttpsFixture,
  browse,
  MemoryOAuthProvider,
  pkce,
} from '@mcp-lambda/dev/testing';

/**
 * The official SDK clients' own OAuth support, end to end through the local bridge: discovery from the 401,
 * registration (Dynamic Client Registration, or a Client ID Metadata Document served over https on loopback),
 * the browser leg (consent page, upstream sign-in; driven with fetch here, with a real browser in
 * bridge-browser.test.ts), the code exchange, and a tool call with the bridge's token.
 */

const REDIRECT = 'http://127.0.0.1:53682/callback';
let stack: BridgeStack;
let documents: HttpsFixture;

beforeAll(async () => {
  documents = await startHttpsFixture((req, res) => {
    const id = `${documents.origin}${req.url}`;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    res.end(
      JSON.stringify({
        client_id: id,
        client_name: `CIMD ${req.url}`,
        redirect_uris: [REDIRECT],
        grant_types: req.url?.includes('no-refresh')
          ? ['authorization_code']
          : ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  stack = await startBridgeStack({ metadataCa: documents.ca });
});
afterAll(async () => {
  await stack?.close();
  await documents?.close();
});

/** The browser leg: returns the parameters the client's redirect URI receives. */
async function signIn(provider: MemoryOAuthProvider): Promise<URLSearchParams> {
  expect(provider.authorizationUrl).toBeDefined();
  const { callback, steps } = await browse(provider.authorizationUrl!.href, {
    until: REDIRECT,
    email: stack.upstream.user.email,
    password: stack.password,
  });
  expect(steps.map((s) => s.kind)).toEqual(expect.arrayContaining(['consent', 'sign-in']));
  expect(callback.searchParams.get('state')).toBe(provider.expectedState);
  expect(callback.searchParams.get('iss')).toBe(stack.issuer);
  return callback.searchParams;
}

const registrations = [
  { way: 'Dynamic Client Registration', metadataUrl: () => undefined },
  { way: 'a Client ID Metadata Document', metadataUrl: () => `${documents.origin}/clients/e2e.json` },
];

describe.each(registrations)('SDK 2.x client via $way', ({ metadataUrl }) => {
  it('completes the flow through the bridge and calls a tool with the minted token', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT, metadataUrl());
    const url = new URL(stack.resource);
    const first = new Transport2(url, { authProvider: provider as never });
    await expect(new Client2({ name: 'e2e-2', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      Unauthorized2,
    );
    await first.finishAuth(await signIn(provider));
    const clientId = (provider.info as { client_id: string }).client_id;
    if (metadataUrl()) expect(clientId).toBe(metadataUrl());
    else expect(clientId).toMatch(/^mcpc_/);
    expect(provider.saved).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });

    const client = new Client2({ name: 'e2e-2', version: '1.0.0' });
    await client.connect(new Transport2(url, { authProvider: provider as never }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({ subject: 'dev-user', clientId, scopes: ['mcp'] });
    await client.close();
  });
});

describe.each(registrations)('SDK 1.x client via $way', ({ metadataUrl }) => {
  it('completes the flow through the bridge and calls a tool with the minted token', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT, metadataUrl());
    const url = new URL(stack.resource);
    const first = new Transport1(url, { authProvider: provider as never });
    await expect(new Client1({ name: 'e2e-1', version: '1.0.0' }).connect(first)).rejects.toThrow(
      /Unauthorized/i,
    );
    const params = await signIn(provider);
    await first.finishAuth(params.get('code')!);
    const clientId = (provider.info as { client_id: string }).client_id;
    if (metadataUrl()) expect(clientId).toBe(metadataUrl());

    const client = new Client1({ name: 'e2e-1', version: '1.0.0' });
    await client.connect(new Transport1(url, { authProvider: provider as never }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toEqual({ subject: 'dev-user', clientId, scopes: ['mcp'] });
    await client.close();
  });
});

describe('a metadata document client that did not register refresh_token', () => {
  it('gets an access token and no refresh token, though it asked for offline_access', async () => {
    const clientId = `${documents.origin}/clients/no-refresh.json`;
    const { verifier, challenge } = pkce();
    const authorize = new URL(`${stack.issuer}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'mcp offline_access',
    }).toString();
    const { callback } = await browse(authorize.href, {
      until: REDIRECT,
      email: stack.upstream.user.email,
      password: stack.password,
    });
    const res = await fetch(`${stack.issuer}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: callback.searchParams.get('code')!,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
      }).toString(),
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    expect(body.scope).toBe('mcp');
    expect(body.refresh_token).toBeUndefined();
  });
});

describe('token refresh by the SDK', () => {
  it('refreshes with the rotated refresh token when the access token is refused', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const url = new URL(stack.resource);
    const first = new Transport2(url, { authProvider: provider as never });
    await expect(new Client2({ name: 'e2e-r', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      Unauthorized2,
    );
    await first.finishAuth(await signIn(provider));
    const issued = provider.saved as { access_token: string; refresh_token: string };
    // Make the held access token useless: the SDK must refresh rather than start a new browser flow.
    provider.saved = { ...issued, access_token: 'invalid' };
    const client = new Client2({ name: 'e2e-r', version: '1.0.0' });
    await client.connect(new Transport2(url, { authProvider: provider as never }));
    expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
    const renewed = provider.saved as { refresh_token: string };
    expect(renewed.refresh_token).not.toBe(issued.refresh_token);
    await client.close();
  });
});
