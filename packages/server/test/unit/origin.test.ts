import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/server.ts';
import { send } from '@mcp-lambda/dev/testing';
import { corsHeaders, isHostAllowed, isOriginAllowed } from '../../src/http/origin.ts';

const LOCAL_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];
const LOCAL_HOSTS = ['127.0.0.1:*', 'localhost:*', '[::1]:*'];

describe('Origin allow-list (Streamable HTTP "Security Warning")', () => {
  it.each([
    ['an absent Origin with an empty list', undefined, [], true],
    ['any Origin with an empty list', 'https://evil.example', [], false],
    ['the opaque "null" Origin', 'null', LOCAL_ORIGINS, false],
    ['a listed origin with any port', 'http://localhost:5173', LOCAL_ORIGINS, true],
    ['a listed origin without a port', 'http://localhost', LOCAL_ORIGINS, true],
    ['a longer host that starts like a listed one', 'http://localhost.evil.example', LOCAL_ORIGINS, false],
    ['a port pattern followed by more text', 'http://localhost:80/x', LOCAL_ORIGINS, false],
    ['a port that is not a number', 'http://localhost:abc', LOCAL_ORIGINS, false],
    ['the highest port', 'http://localhost:65535', LOCAL_ORIGINS, true],
    ['a port above 65535', 'http://localhost:65536', LOCAL_ORIGINS, false],
    ['a five-digit port far above 65535', 'http://127.0.0.1:99999', LOCAL_ORIGINS, false],
    ['another scheme', 'https://localhost:5173', LOCAL_ORIGINS, false],
    ['an exact origin, in other letter case', 'HTTPS://App.Example.com', ['https://app.example.com'], true],
    ['a suffix on an exact origin', 'https://app.example.com.evil', ['https://app.example.com'], false],
    [
      'an exact origin with a port it does not list',
      'https://app.example.com:8443',
      ['https://app.example.com'],
      false,
    ],
    ['anything under "*"', 'https://anything.example', ['*'], true],
  ])('%s → allowed: %s', (_name, origin, list, allowed) => {
    expect(isOriginAllowed(origin, list)).toBe(allowed);
  });
});

describe('Host allow-list (DNS-rebinding guard, Streamable HTTP "Security Warning")', () => {
  it.each([
    ['any Host when no list is configured', 'evil.example', undefined, true],
    ['a missing Host when a list is configured', undefined, LOCAL_HOSTS, false],
    ['127.0.0.1 with a port', '127.0.0.1:3000', LOCAL_HOSTS, true],
    ['localhost in capitals', 'LOCALHOST:80', LOCAL_HOSTS, true],
    ['IPv6 loopback', '[::1]:3000', LOCAL_HOSTS, true],
    ['a port above 65535', '127.0.0.1:70000', LOCAL_HOSTS, false],
    ['a rebound name', 'evil.example:3000', LOCAL_HOSTS, false],
    ['a name that starts with a listed one', 'localhost.evil.example', LOCAL_HOSTS, false],
  ])('%s → allowed: %s', (_name, host, list, allowed) => {
    expect(isHostAllowed(host, list)).toBe(allowed);
  });
});

describe('CORS headers on answers to browser origins', () => {
  it.each([
    ['no Origin (a non-browser client)', undefined, LOCAL_ORIGINS, {}],
    ['an origin not on the list', 'https://evil.example', LOCAL_ORIGINS, {}],
    [
      'a listed origin',
      'http://localhost:5173',
      LOCAL_ORIGINS,
      {
        'access-control-allow-origin': 'http://localhost:5173',
        'access-control-expose-headers': 'www-authenticate, mcp-session-id',
        vary: 'origin',
      },
    ],
  ])('%s → %j', (_name, origin, list, headers) => {
    expect(corsHeaders(origin, list)).toEqual(headers);
  });
});

describe('the transport answers allowed browser origins with CORS headers', () => {
  const server = createMcpServer({
    info: { name: 'cors', version: '1.0.0' },
    http: { allowedOrigins: ['https://app.example.com'] },
  });

  it('on a JSON answer, and also on a refusal the page must read', async () => {
    const ok = await send(server, {
      headers: { origin: 'https://app.example.com' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(ok.headers).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-expose-headers': 'www-authenticate, mcp-session-id',
      vary: 'origin',
      'content-type': 'application/json',
    });
    const refused = await send(server, { headers: { origin: 'https://app.example.com' }, method: 'GET' });
    expect(refused.status).toBe(405);
    expect(refused.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  it('never for a request without an Origin, whose answer is unchanged', async () => {
    const res = await send(server, { body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(res.headers).toEqual({ 'content-type': 'application/json' });
  });

  it('lets the page read the Mcp-Session-Id that initialize issues (else a browser client is never asked)', async () => {
    const withSessions = createMcpServer({
      info: { name: 'cors-sessions', version: '1.0.0' },
      http: { allowedOrigins: ['https://app.example.com'] },
      sessions: { keys: ['cors-session-key-0123456789abcdefghij'] },
    });
    const res = await send(withSessions, {
      headers: { origin: 'https://app.example.com', 'mcp-protocol-version': '2025-11-25' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'page', version: '1' },
        },
      },
    });
    expect(res.headers['mcp-session-id']).toBeDefined();
    expect(res.headers['access-control-expose-headers']?.split(/,\s*/)).toContain('mcp-session-id');
  });
});
