import { describe, expect, it } from 'vitest';
import { gatewayPreflight, gatewayResponseHeaders, type GatewayCors } from '../../src/local/gateway-cors.ts';
import { MCP_CORS_HEADERS } from '@mcp-lambda/server/lambda';

const LOCAL_ORIGINS = ['http://localhost:*', 'http://127.0.0.1:*'];
const HTTP_API: GatewayCors = { api: 'http', allowedOrigins: LOCAL_ORIGINS, allowMethods: ['POST'] };
const REST_API: GatewayCors = {
  api: 'rest',
  allowedOrigins: LOCAL_ORIGINS,
  routes: { '/mcp': ['POST', 'GET', 'DELETE'], '/.well-known/oauth-protected-resource/mcp': ['GET'] },
};
const ALLOW_HEADERS = MCP_CORS_HEADERS.join(',');

const preflight = (path: string, headers: Record<string, string>) => ({ method: 'OPTIONS', path, headers });
const browser = { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' };

describe('the local HTTP API answers CORS preflights as API Gateway does (corsPreflight)', () => {
  it('answers a preflight from an allowed origin itself, on any path: 204 with the configured headers', () => {
    for (const path of ['/mcp', '/.well-known/oauth-authorization-server', '/anything'])
      expect(gatewayPreflight(preflight(path, browser), HTTP_API)).toEqual({
        status: 204,
        headers: {
          'access-control-allow-origin': 'http://localhost:6274',
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': '3600',
        },
      });
  });

  it('answers a preflight from another origin with 204 and no CORS headers (the browser then refuses)', () => {
    const foreign = { ...browser, origin: 'https://evil.example' };
    expect(gatewayPreflight(preflight('/mcp', foreign), HTTP_API)).toEqual({ status: 204, headers: {} });
  });

  it('names `*` when any origin may call', () => {
    const any: GatewayCors = { ...HTTP_API, allowedOrigins: ['*'] };
    expect(gatewayPreflight(preflight('/mcp', browser), any)?.headers['access-control-allow-origin']).toBe(
      '*',
    );
  });

  it.each([
    ['an OPTIONS request without Origin', preflight('/mcp', { 'access-control-request-method': 'POST' })],
    [
      'an OPTIONS request without Access-Control-Request-Method',
      preflight('/mcp', { origin: browser.origin }),
    ],
    ['a POST', { method: 'POST', path: '/mcp', headers: browser }],
  ])('passes %s on to the function', (_name, request) => {
    expect(gatewayPreflight(request, HTTP_API)).toBeUndefined();
  });

  it('answers nothing itself without allowed origins (a deployment without allowedOrigins)', () => {
    expect(gatewayPreflight(preflight('/mcp', browser), undefined)).toBeUndefined();
    expect(gatewayPreflight(preflight('/mcp', browser), { ...HTTP_API, allowedOrigins: [] })).toBeUndefined();
  });

  it("replaces the function's CORS headers with its own on an answer to an allowed origin", () => {
    const answer = { 'content-type': 'application/json', 'access-control-allow-origin': '*', vary: 'origin' };
    expect(gatewayResponseHeaders('http://localhost:6274', answer, HTTP_API)).toEqual({
      'content-type': 'application/json',
      vary: 'origin',
      'access-control-allow-origin': 'http://localhost:6274',
      'access-control-expose-headers': 'www-authenticate',
    });
    expect(gatewayResponseHeaders('https://evil.example', answer, HTTP_API)).toEqual({
      'content-type': 'application/json',
      vary: 'origin',
    });
    expect(gatewayResponseHeaders(undefined, answer, HTTP_API)).toEqual(answer);
  });
});

describe('the local REST API answers CORS preflights as its OPTIONS methods do (addCorsPreflight)', () => {
  it('answers OPTIONS on a route with a preflight: 204, its methods, Vary: Origin', () => {
    expect(gatewayPreflight(preflight('/mcp', { origin: 'http://127.0.0.1:5173' }), REST_API)).toEqual({
      status: 204,
      headers: {
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-allow-origin': 'http://127.0.0.1:5173',
        vary: 'Origin',
        'access-control-allow-methods': 'POST,GET,DELETE',
        'access-control-max-age': '3600',
      },
    });
    const metadata = gatewayPreflight(
      preflight('/.well-known/oauth-protected-resource/mcp', { origin: 'http://127.0.0.1:5173' }),
      REST_API,
    );
    expect(metadata?.headers['access-control-allow-methods']).toBe('GET');
  });

  it('names no origin for one not on the list, and passes paths without a preflight on', () => {
    const answer = gatewayPreflight(preflight('/mcp', { origin: 'https://evil.example' }), REST_API);
    expect(answer?.headers['access-control-allow-origin']).toBeUndefined();
    expect(gatewayPreflight(preflight('/other', browser), REST_API)).toBeUndefined();
    expect(gatewayPreflight(preflight('/constructor', browser), REST_API)).toBeUndefined();
  });

  it("leaves the function's own CORS headers as they are", () => {
    const answer = { 'access-control-allow-origin': 'http://localhost:6274' };
    expect(gatewayResponseHeaders('http://localhost:6274', answer, REST_API)).toEqual(answer);
  });
});
