import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthAuthenticator } from '../../src/auth/oauth.ts';
import { defineTool } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import type { Logger } from '../../src/log.ts';
import {
  startIssuer,
  type TestIssuer,
  serveServer,
  type RunningServer,
  statelessHeaders,
  statelessMeta,
  send,
} from '@mcp-lambda/dev/testing';

/**
 * MCP authorization over real HTTP (the spec's "Authorization": protected resource metadata, 401 and 403
 * challenges): a local issuer signs tokens, the server runs behind the same Lambda adapter and local HTTP server
 * as `npm start`, and every answer is checked on the wire.
 */

const RESOURCE = 'https://mcp.example.com/mcp';
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
const SECRET_ARGUMENT = 'do-not-log-this-value';

const tools = [
  defineTool({ name: 'ping', description: 'Answers pong.', handler: () => 'pong' }),
  defineTool({
    name: 'quarterly_report',
    description: 'Reads the quarterly report (needs reports:read).',
    scopes: ['reports:read'],
    handler: (_args, ctx) => `report for ${ctx.principal?.subject ?? 'anonymous'}`,
  }),
  defineTool({
    name: 'whoami',
    description: 'Tells the caller who the server thinks it is.',
    inputSchema: { type: 'object', properties: { note: { type: 'string' } } } as const,
    handler: (_args, ctx) => ({
      subject: ctx.principal?.subject ?? null,
      scopes: [...(ctx.principal?.scopes ?? [])],
    }),
  }),
  defineTool({
    name: 'audited_echo',
    description: 'Echoes its text; its arguments are written to the audit log.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } } as const,
    logArguments: true,
    handler: ({ text }) => text ?? '',
  }),
];

/** Captures log lines so the audit trail can be read back. */
function captureLog() {
  const lines: { level: string; message: string; attributes: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (message: string, ...attributes: Record<string, unknown>[]) =>
      lines.push({ level, message, attributes: Object.assign({}, ...attributes) });
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

let issuer: TestIssuer;
let server: RunningServer;
const captured = captureLog();

beforeAll(async () => {
  issuer = await startIssuer({ audience: RESOURCE, scope: 'mcp' });
  server = await serveServer(
    {
      info: { name: 'auth-fixture', version: '1.0.0' },
      tools,
      auth: createOAuthAuthenticator({
        issuer: issuer.issuer,
        resource: RESOURCE,
        requiredScopes: ['mcp'],
        scopesSupported: ['reports:read'],
        resourceName: 'Auth fixture',
      }),
    },
    { log: captured.log },
  );
});
afterAll(async () => {
  await server.close();
  await issuer.close();
});

const call = (name: string, args: Record<string, unknown> = {}, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

async function post(body: unknown, authorization?: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization !== undefined ? { authorization } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

const now = () => Math.floor(Date.now() / 1000);

describe('authorization over HTTP', () => {
  it('serves a call with a valid token (200) and hands the principal to the tool', async () => {
    const res = await post(call('whoami'), `Bearer ${await issuer.token({ sub: 'alice' })}`);
    expect(res.status).toBe(200);
    expect(res.json.result.structuredContent).toEqual({ subject: 'alice', scopes: ['mcp'] });
  });

  // One row per way a request fails to prove its caller; each is a 401 with a Bearer challenge pointing at the
  // protected resource metadata (MCP authorization spec, "Authorization Server Location").
  const rows: { name: string; authorization: () => Promise<string | undefined>; error: boolean }[] = [
    { name: 'no token', authorization: async () => undefined, error: false },
    { name: 'garbage', authorization: async () => 'Bearer garbage', error: true },
    {
      name: 'a wrong signature',
      authorization: async () => `Bearer ${await issuer.token({}, { foreignKey: true })}`,
      error: true,
    },
    {
      name: 'a wrong issuer',
      authorization: async () => `Bearer ${await issuer.token({ iss: 'https://evil.example.com' })}`,
      error: true,
    },
    {
      name: 'a wrong audience',
      authorization: async () => `Bearer ${await issuer.token({ aud: 'https://elsewhere.example.com/mcp' })}`,
      error: true,
    },
    {
      name: 'an expired token',
      authorization: async () => `Bearer ${await issuer.token({ exp: now() - 120 })}`,
      error: true,
    },
    {
      name: 'a token not yet valid',
      authorization: async () => `Bearer ${await issuer.token({ nbf: now() + 600 })}`,
      error: true,
    },
    { name: 'alg none', authorization: async () => `Bearer ${issuer.unsecured()}`, error: true },
  ];

  it.each(rows)('answers $name with 401 and WWW-Authenticate', async ({ authorization, error }) => {
    const presented = await authorization();
    const res = await post(call('ping'), presented);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(challenge).toContain('scope="mcp"');
    expect(challenge.includes('error="invalid_token"')).toBe(error);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(res.json.error.message).toMatch(/^Unauthorized: /);
    if (presented) expect(res.text).not.toContain(presented.slice(7));
  });

  it('answers a token without the server-wide scope with 403 insufficient_scope', async () => {
    const res = await post(call('ping'), `Bearer ${await issuer.token({ scope: 'profile' })}`);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(res.headers.get('www-authenticate')).toContain('scope="mcp"');
  });

  it('lists a scoped tool to a caller without its scope, so the client can step up later', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, `Bearer ${await issuer.token()}`);
    expect(res.status).toBe(200);
    expect(res.json.result.tools.map((t: { name: string }) => t.name)).toContain('quarterly_report');
  });

  it('refuses a call to a scoped tool without its scope: 403 naming every scope to request', async () => {
    const res = await post(call('quarterly_report', {}, 'r-7'), `Bearer ${await issuer.token()}`);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", error_description="This request needs the scope(s): mcp reports:read", ' +
        `scope="mcp reports:read", resource_metadata="${METADATA_URL}"`,
    );
    expect(res.json).toEqual({
      jsonrpc: '2.0',
      id: 'r-7',
      error: {
        code: -32000,
        message: 'Forbidden: tool "quarterly_report" needs the scope(s) reports:read',
        data: { requiredScopes: ['reports:read'] },
      },
    });
  });

  it('refuses the scoped tool the same way in a 2026-07-28 request', async () => {
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'quarterly_report', _meta: statelessMeta() },
      },
      `Bearer ${await issuer.token()}`,
      statelessHeaders('tools/call', 'quarterly_report'),
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('scope="mcp reports:read"');
  });

  it('serves the scoped tool once the token grants its scope', async () => {
    const token = await issuer.token({ sub: 'bob', scope: 'mcp reports:read' });
    const res = await post(call('quarterly_report'), `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.json.result.content).toEqual([{ type: 'text', text: 'report for bob' }]);
  });

  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])(
    'serves the protected resource metadata at %s without a token',
    async (path) => {
      const res = await fetch(`${server.base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['mcp', 'reports:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Auth fixture',
      });
    },
  );

  it('answers GET on the endpoint with 401 before a token, and 405 after', async () => {
    expect((await fetch(server.url)).status).toBe(401);
    const res = await fetch(server.url, { headers: { authorization: `Bearer ${await issuer.token()}` } });
    expect(res.status).toBe(405);
  });

  it('authenticates notifications too', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect((await post(note)).status).toBe(401);
    expect((await post(note, `Bearer ${await issuer.token()}`)).status).toBe(202);
  });
});

describe('an unreachable issuer', () => {
  it('answers 503 with Retry-After, not 401, and logs the cause for the operator', async () => {
    const down = await startIssuer({ audience: RESOURCE });
    down.setAvailable(false);
    const log = captureLog();
    const local = await serveServer(
      {
        info: { name: 'auth-down', version: '1.0.0' },
        tools,
        auth: createOAuthAuthenticator({ issuer: down.issuer, resource: RESOURCE, jwksUri: down.jwksUri }),
      },
      { log: log.log },
    );
    try {
      const res = await fetch(local.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${await down.token()}`,
        },
        body: JSON.stringify(call('ping')),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(await res.text()).not.toContain(down.jwksUri);
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'error',
          message: 'access tokens cannot be verified',
          attributes: expect.objectContaining({ cause: `GET ${down.jwksUri} answered 503` }),
        }),
      );
    } finally {
      await local.close();
      await down.close();
    }
  });
});

describe('the audit trail', () => {
  // The audit fields ride on the request's one log line.
  const auditLines = () =>
    captured.lines
      .filter((l) => l.message === 'request' && l.attributes.tool !== undefined)
      .map((l) => l.attributes);

  it('writes one line per tool call with principal, tool, outcome, duration and request id', async () => {
    const before = auditLines().length;
    const token = await issuer.token({ sub: 'carol' });
    await post(call('whoami', { note: SECRET_ARGUMENT }), `Bearer ${token}`);
    await post(call('quarterly_report'), `Bearer ${token}`);
    await post(call('no_such_tool'), `Bearer ${token}`);
    const lines = auditLines().slice(before);
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => [l.tool, l.outcome, l.principal, l.clientId])).toEqual([
      ['whoami', 'ok', 'carol', 'test-client'],
      ['quarterly_report', 'denied', 'carol', 'test-client'],
      ['no_such_tool', 'rejected', 'carol', 'test-client'],
    ]);
    for (const line of lines) {
      expect(line.requestId).toEqual(expect.any(String));
      expect(line.durationMs).toEqual(expect.any(Number));
    }
    const everything = JSON.stringify(captured.lines);
    expect(everything).not.toContain(SECRET_ARGUMENT);
    expect(everything).not.toContain(token);
  });

  it('includes the arguments only for a tool that opted in', async () => {
    const before = auditLines().length;
    await post(call('audited_echo', { text: 'visible' }), `Bearer ${await issuer.token()}`);
    expect(auditLines().slice(before)).toEqual([expect.objectContaining({ arguments: { text: 'visible' } })]);
  });
});

describe('authorization off (the local default)', () => {
  const open = createMcpServer({ info: { name: 'open', version: '1.0.0' }, tools });

  it('serves calls without a token and calls scoped tools freely', async () => {
    const res = await send(open, { body: call('quarterly_report') });
    expect(res.status).toBe(200);
    expect(res.json.result.content).toEqual([{ type: 'text', text: 'report for anonymous' }]);
  });

  it('publishes no protected resource metadata', async () => {
    const res = await send(open, { method: 'GET', path: '/.well-known/oauth-protected-resource/mcp' });
    expect(res.status).toBe(404);
  });
});
