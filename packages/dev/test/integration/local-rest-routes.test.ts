import { request } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRELUDE_DELIMITER } from '@mcp-lambda/server/internal';
import { startLocalServer } from '../../src/local/dev-server.ts';

// A REST API with both kinds of integration, as the stack builds the streaming API with the bridge beside /mcp
// behind a custom domain: the buffered routes get payload 1.0 events and answer whole (each Set-Cookie a line of
// its own), every other path is streamed.

let local: { url: string; close(): Promise<void> };
const seen: { path: string; kind: string; method: string }[] = [];
beforeAll(async () => {
  local = await startLocalServer({
    port: 0,
    streamingHandler: async (streamed, stream) => {
      const event = streamed as APIGatewayProxyEvent;
      seen.push({ path: event.path, kind: 'streamed', method: event.httpMethod });
      stream.write(JSON.stringify({ statusCode: 200, headers: { 'content-type': 'text/plain' } }));
      stream.write(PRELUDE_DELIMITER);
      stream.write('streamed');
      stream.end();
    },
    buffered: {
      handles: (path) => path.startsWith('/oauth/'),
      handler: async (event) => {
        seen.push({ path: event.path, kind: 'buffered', method: event.httpMethod });
        return {
          statusCode: 201,
          headers: { 'Content-Type': 'application/json' },
          multiValueHeaders: { 'Set-Cookie': ['a=1; Path=/', 'b=2; Path=/'] },
          body: JSON.stringify({ query: event.queryStringParameters }),
        };
      },
    },
  });
});
afterAll(() => local?.close());

describe('buffered REST routes beside a streamed one', () => {
  it('routes by path: the buffered routes answer whole, with every cookie; the rest is streamed', async () => {
    const buffered = await fetch(`${local.url}/oauth/authorize?state=x`);
    expect(buffered.status).toBe(201);
    expect(buffered.headers.get('content-type')).toBe('application/json');
    expect(buffered.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(await buffered.json()).toEqual({ query: { state: 'x' } });
    const streamed = await fetch(`${local.url}/mcp`, { method: 'POST', body: '{}' });
    expect(await streamed.text()).toBe('streamed');
    expect(seen).toEqual([
      { path: '/oauth/authorize', kind: 'buffered', method: 'GET' },
      { path: '/mcp', kind: 'streamed', method: 'POST' },
    ]);
  });
});

/** A GET of a request target exactly as written (fetch would resolve dot segments and `//` first). */
const rawGet = (target: string) =>
  new Promise<number>((resolve, reject) => {
    const { hostname, port } = new URL(local.url);
    const req = request({ host: hostname, port, path: target }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });

describe('a REST route is chosen by the path as sent', () => {
  it('a `//host/...` target and dot segments never reach a buffered route their path does not name', async () => {
    seen.length = 0;
    expect(await rawGet('//evil.example/oauth/authorize?state=x')).toBe(200);
    expect(await rawGet('/mcp/../oauth/authorize')).toBe(200);
    expect(await rawGet('/mcp/%2E%2E/oauth/authorize')).toBe(200);
    expect(seen).toEqual([
      { path: '//evil.example/oauth/authorize', kind: 'streamed', method: 'GET' },
      { path: '/mcp/../oauth/authorize', kind: 'streamed', method: 'GET' },
      { path: '/mcp/%2E%2E/oauth/authorize', kind: 'streamed', method: 'GET' },
    ]);
  });
});
