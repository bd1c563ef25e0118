import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../src/wire/types.ts';
import { createProxyLambdaHandler, toHttpRequest, toLambdaResult } from '../../src/lambda/adapter.ts';
import { silentLogger } from '../../src/log.ts';
import { serveHandler } from '@mcp-lambda/dev/testing';

/** Query strings and cookies through the adapters (the authorization bridge reads both; the MCP path neither). */

const event = (extra: Partial<APIGatewayProxyEventV2>): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: '/oauth/authorize',
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method: 'GET', path: '/oauth/authorize' }, stage: '$default' },
    isBase64Encoded: false,
    ...extra,
  }) as APIGatewayProxyEventV2;

describe('query strings and cookies in the Lambda adapter', () => {
  it('passes the raw query string and the payload 2.0 cookie list through', () => {
    const req = toHttpRequest(event({ rawQueryString: 'a=1&a=2&b=%20', cookies: ['x=1', 'y=2'] }));
    expect(req.query).toBe('a=1&a=2&b=%20');
    expect(req.cookies).toEqual(['x=1', 'y=2']);
  });

  it('leaves both out when the request has none', () => {
    const req = toHttpRequest(event({}));
    expect('query' in req).toBe(false);
    expect('cookies' in req).toBe(false);
  });

  it('returns Set-Cookie values as the result cookie list', () => {
    expect(
      toLambdaResult({ status: 302, headers: {}, body: '', cookies: ['a=1; Path=/', 'b=2'] }).cookies,
    ).toEqual(['a=1; Path=/', 'b=2']);
  });
});

describe('cookies through the local server, as API Gateway delivers them', () => {
  it('moves the Cookie header into the cookie list and writes each Set-Cookie separately', async () => {
    let seen: APIGatewayProxyEventV2 | undefined;
    const server = await serveHandler(async (e) => {
      seen = e;
      return { statusCode: 204, cookies: ['a=1; HttpOnly', 'b=2'] };
    });
    try {
      const res = await fetch(`${server.base}/oauth/callback?x=1`, { headers: { cookie: 'p=1; q=2' } });
      expect(seen?.cookies).toEqual(['p=1', 'q=2']);
      expect(seen?.headers.cookie).toBeUndefined();
      expect(seen?.rawQueryString).toBe('x=1');
      expect(res.headers.getSetCookie()).toEqual(['a=1; HttpOnly', 'b=2']);
    } finally {
      await server.close();
    }
  });
});

describe('the proxy handler answers each API Gateway payload in its own shape', () => {
  const context = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as never;
  const restEvent = {
    httpMethod: 'GET',
    path: '/oauth/callback',
    headers: { Cookie: 'binding=abc; consent=def', Host: 'mcp.example.com' },
    multiValueHeaders: {},
    multiValueQueryStringParameters: { code: ['c 1'], state: ['s'] },
    body: null,
    isBase64Encoded: false,
    requestContext: { stage: 'prod' },
  } as never;

  it('a REST API (payload 1.0) event: cookies from the Cookie header, the query re-encoded, Set-Cookie repeated', async () => {
    let seen: HttpRequest | undefined;
    const handler = createProxyLambdaHandler(async (req) => {
      seen = req;
      return {
        status: 302,
        headers: { location: 'https://client.example/cb' },
        body: '',
        cookies: ['a=1', 'b=2'],
      };
    }, silentLogger);
    const result = await handler(restEvent, context);
    expect(seen).toEqual({
      method: 'GET',
      path: '/oauth/callback',
      headers: { host: 'mcp.example.com' },
      query: 'code=c+1&state=s',
      cookies: ['binding=abc', 'consent=def'],
    });
    expect(result).toEqual({
      statusCode: 302,
      headers: { location: 'https://client.example/cb' },
      multiValueHeaders: { 'set-cookie': ['a=1', 'b=2'] },
      body: '',
      isBase64Encoded: false,
    });
  });

  it('a REST API event with two Cookie headers: every cookie of each, none lost to a comma join', async () => {
    let seen: HttpRequest | undefined;
    const handler = createProxyLambdaHandler(async (req) => {
      seen = req;
      return { status: 204, headers: {}, body: '' };
    }, silentLogger);
    await handler(
      {
        ...(restEvent as object),
        // API Gateway keeps the last value in `headers` and every value in `multiValueHeaders`.
        headers: { Cookie: '__Host-mcp_bridge_binding=X', Host: 'mcp.example.com' },
        multiValueHeaders: {
          Cookie: ['theme=dark', '__Host-mcp_bridge_binding=X'],
          Host: ['mcp.example.com'],
        },
      } as never,
      context,
    );
    expect(seen?.cookies).toEqual(['theme=dark', '__Host-mcp_bridge_binding=X']);
    expect(seen?.headers).toEqual({ host: 'mcp.example.com' });
  });

  it('an HTTP API (payload 2.0) event: the cookie list in, the result cookie list out', async () => {
    const handler = createProxyLambdaHandler(
      async (req) => ({ status: 200, headers: {}, body: JSON.stringify(req.cookies), cookies: ['c=3'] }),
      silentLogger,
    );
    const result = (await handler(event({ cookies: ['x=1'] }), context)) as {
      body: string;
      cookies: string[];
    };
    expect(JSON.parse(result.body)).toEqual(['x=1']);
    expect(result.cookies).toEqual(['c=3']);
  });
});
