import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { HttpRequest, InvocationContext } from '../../src/wire/types.ts';
import { createLambdaHandler, toHttpRequest, toLambdaResult } from '../../src/lambda/adapter.ts';
import { silentLogger } from '../../src/log.ts';

function event(overrides: Partial<APIGatewayProxyEventV2> = {}, stage = '$default'): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/mcp',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'POST', path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'gw-1',
      routeKey: '$default',
      stage,
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 0,
    },
    isBase64Encoded: false,
    ...overrides,
  };
}

describe('toHttpRequest (API Gateway HTTP API payload 2.0 → neutral request)', () => {
  it('carries method, path, headers and a plain body', () => {
    expect(toHttpRequest(event({ body: '{"a":1}' }))).toEqual({
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  });

  it('decodes a base64 body', () => {
    const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"é"}', 'utf8').toString('base64');
    expect(toHttpRequest(event({ body, isBase64Encoded: true })).body).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"ping","x":"é"}',
    );
  });

  it('leaves the body out when there is none', () => {
    expect('body' in toHttpRequest(event())).toBe(false);
  });

  it('lower-cases header names and keeps values as sent', () => {
    const headers = {
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Name': 'Tool_A',
    };
    expect(toHttpRequest(event({ headers })).headers).toEqual({
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-name': 'Tool_A',
    });
  });

  it.each([
    ['the $default stage keeps the path', '$default', '/mcp', '/mcp'],
    ['a named stage prefix is stripped', 'prod', '/prod/mcp', '/mcp'],
    ['a named stage root becomes /', 'prod', '/prod', '/'],
    ['a path that only starts like the stage is kept', 'prod', '/production/mcp', '/production/mcp'],
    ['a path without the stage prefix is kept', 'prod', '/mcp', '/mcp'],
  ])('%s', (_name, stage, rawPath, path) => {
    expect(toHttpRequest(event({ rawPath }, stage)).path).toBe(path);
  });
});

describe('toLambdaResult (neutral response → API Gateway result)', () => {
  it('maps status, headers and body, never base64', () => {
    expect(toLambdaResult({ status: 202, headers: {}, body: '' })).toEqual({
      statusCode: 202,
      headers: {},
      body: '',
      isBase64Encoded: false,
    });
    expect(
      toLambdaResult({
        status: 405,
        headers: { allow: 'POST', 'content-type': 'application/json' },
        body: '{}',
      }),
    ).toEqual({
      statusCode: 405,
      headers: { allow: 'POST', 'content-type': 'application/json' },
      body: '{}',
      isBase64Encoded: false,
    });
  });
});

describe('createLambdaHandler', () => {
  it('passes the Lambda request id, a deadline and a request-scoped logger to the neutral handler', async () => {
    let seen: { req: HttpRequest; ctx: InvocationContext } | undefined;
    const lines: Record<string, unknown>[] = [];
    const log = {
      ...silentLogger,
      info: (_m: string, a?: Record<string, unknown>) => void lines.push(a ?? {}),
    };
    const handler = createLambdaHandler(async (req, ctx) => {
      seen = { req, ctx };
      ctx.log.info('inside', { x: 1 });
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    }, log);
    const before = Date.now();
    const result = await handler(event({ body: '{}' }), {
      awsRequestId: 'aws-req-9',
      getRemainingTimeInMillis: () => 5_000,
    } as Context);
    expect(result).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      isBase64Encoded: false,
    });
    expect(seen?.req.path).toBe('/mcp');
    expect(seen?.ctx.requestId).toBe('aws-req-9');
    expect(seen?.ctx.deadline).toBeGreaterThanOrEqual(before + 5_000);
    expect(seen?.ctx.deadline).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(lines).toEqual([{ requestId: 'aws-req-9', x: 1 }]);
  });

  it('has no deadline when the context cannot tell the remaining time', async () => {
    let deadline: number | undefined = 0;
    const handler = createLambdaHandler(async (_req, ctx) => {
      deadline = ctx.deadline;
      return { status: 204, headers: {}, body: '' };
    }, silentLogger);
    await handler(event(), { awsRequestId: 'r' } as Context);
    expect(deadline).toBeUndefined();
  });
});
