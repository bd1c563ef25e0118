import {
  Client as Client2,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  StreamableHTTPClientTransport as Transport2,
} from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startIssuer,
  type TestIssuer,
  type RunningServer,
  startTestS3,
  type TestS3,
} from '@mcp-lambda/dev/testing';
import { serveMcpFunction } from '../support/local.ts';

/**
 * The real MCP function (`functions/mcp/handler.ts`) in `MCP_AUTH_MODE=oauth`, with a local issuer and a local
 * S3-compatible server: the official SDK clients connect with a bearer token, and a stored output produced for one
 * caller cannot be read by another, whose read never touches the object.
 */

const RESOURCE = 'https://mcp.example.com/mcp';
const AUTH_ENV = ['MCP_AUTH_MODE', 'MCP_AUTH_ISSUER', 'MCP_AUTH_RESOURCE', 'MCP_AUTH_REQUIRED_SCOPES'];

let issuer: TestIssuer;
let s3: TestS3;
let server: RunningServer;

beforeAll(async () => {
  issuer = await startIssuer({ audience: RESOURCE, scope: 'mcp' });
  s3 = await startTestS3();
  server = await serveMcpFunction({
    ...s3.env(),
    MCP_AUTH_MODE: 'oauth',
    MCP_AUTH_ISSUER: issuer.issuer,
    MCP_AUTH_RESOURCE: RESOURCE,
    MCP_AUTH_REQUIRED_SCOPES: 'mcp',
  });
});

afterAll(async () => {
  await server?.close();
  await s3?.close();
  await issuer?.close();
  for (const name of AUTH_ENV) delete process.env[name];
});

/** An SDK 1.x client that presents `token` on every request through `requestInit`. */
async function sdk1(token: string): Promise<Client1> {
  const client = new Client1({ name: 'auth-sdk1', version: '1.0.0' });
  await client.connect(
    new Transport1(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

describe('the MCP function with MCP_AUTH_MODE=oauth', () => {
  it('lets the SDK 1.x client connect and call tools with a bearer token in requestInit', async () => {
    const client = await sdk1(await issuer.token({ sub: 'alice' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('safe_divide');
      const result = await client.callTool({ name: 'safe_divide', arguments: { a: 1, b: 4 } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([expect.objectContaining({ type: 'text' })]);
    } finally {
      await client.close();
    }
  });

  it('refuses the SDK 1.x client without a token: HTTP 401 on initialize', async () => {
    const client = new Client1({ name: 'auth-sdk1', version: '1.0.0' });
    const error = await client.connect(new Transport1(new URL(server.url))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 401 });
  });

  it('lets the SDK 2.x client speak 2026-07-28 with a token from its auth provider, renewing after a 401', async () => {
    let token = await issuer.token({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 3600 });
    let renewals = 0;
    const client = new Client2(
      { name: 'auth-sdk2', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    const transport = new Transport2(new URL(server.url), {
      authProvider: {
        token: async () => token,
        onUnauthorized: async ({ response }) => {
          // The challenge names the metadata and the scope to ask for, as a real provider would read them.
          expect(extractWWWAuthenticateParams(response)).toMatchObject({
            error: 'invalid_token',
            scope: 'mcp',
          });
          renewals += 1;
          token = await issuer.token({ sub: 'alice' });
        },
      },
    });
    try {
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern'); // the SDK's name for the 2026-07-28 era
      const result = await client.callTool({ name: 'safe_divide', arguments: { a: 3, b: 4 } });
      expect(result.isError).toBeFalsy();
      expect(renewals).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('publishes metadata the SDK discovery accepts, naming the issuer and the scopes', async () => {
    const response = await fetch(server.url, { method: 'POST' });
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(response);
    expect(resourceMetadataUrl?.href).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    );
    // The advertised URL is the deployed one; the same path on the local server serves the same document.
    const metadata = await discoverOAuthProtectedResourceMetadata(server.url);
    expect(metadata).toMatchObject({
      resource: RESOURCE,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('stored outputs belong to the caller that produced them', () => {
  it("answers another caller's read of a resource link like an unknown URI (-32002) without fetching the object", async () => {
    const alice = await sdk1(await issuer.token({ sub: 'alice' }));
    const bob = await sdk1(await issuer.token({ sub: 'bob' }));
    try {
      const result = await alice.callTool({ name: 'generate_report', arguments: { rows: 5000 } });
      const link = (result.content as { type: string; uri?: string }[]).find(
        (b) => b.type === 'resource_link',
      );
      expect(link?.uri).toMatch(/^mcp-output:\/\//);
      const uri = link!.uri!;
      const aliceKeys = s3.keys().filter((k) => k.endsWith(uri.split('/').pop()!));
      expect(aliceKeys).toHaveLength(1);

      const read = await alice.readResource({ uri });
      expect(read.contents[0]).toMatchObject({ uri, text: expect.stringMatching(/^[^\n]+,/) });
      // Alice's object lives in her own key space: <prefix><owner tag>/<id>.
      expect(aliceKeys[0]).toMatch(/^outputs\/[0-9a-f]{64}\/[0-9a-f]{32}$/);

      const before = s3.requests.length;
      const error = await bob.readResource({ uri }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32002);
      expect((error as McpError).data).toEqual({ uri });
      const bobRequests = s3.requests.slice(before);
      // Bob's read went to storage under Bob's own key space, and never asked for Alice's object.
      expect(bobRequests.map((r) => r.key)).not.toContain(aliceKeys[0]);
      expect(bobRequests.every((r) => r.method === 'GET')).toBe(true);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
