import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MCP_CORS_HEADERS } from '@mcp-lambda/server/lambda';
import { start, ending } from '../support/npm-start.ts';

// Browsers reach `npm start` as they reach the deployed API: API Gateway answers their CORS preflights for the
// allowed origins (MCP_ALLOWED_ORIGINS, loopback pages by default), the same setting that configures the stack's
// CORS. Each request here is what `curl -X OPTIONS -H 'Origin: …'` sends.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw request, as curl sends it (fetch would add and refuse headers of its own). */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const PAGE = 'http://localhost:6274';
const preflight = (url: string, method = 'POST', origin = PAGE) =>
  send(url, 'OPTIONS', {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'content-type,mcp-protocol-version',
  });
const ALLOW_HEADERS = MCP_CORS_HEADERS.join(',');
const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const post = (url: string, origin: string) =>
  send(
    url,
    'POST',
    { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    ping,
  );

/** Runs `npm start` with `env` and hands the MCP endpoint URL to `use`. */
async function withStart(env: Record<string, string>, use: (mcp: string) => Promise<void>) {
  const run = await start({ PORT: '0', OFFLOAD_BUCKET: 'not-used-here', ...env }, use);
  expect(run.code, ending(run)).toBe(0);
  expect(run.stderr).toEqual([]);
}

describe('npm start answers browsers like the deployed HTTP API (the default)', () => {
  it('a preflight from an allowed origin: 204 with the CORS headers the stack configures, no body', async () => {
    await withStart({}, async (mcp) => {
      const answer = await preflight(mcp);
      expect(answer).toMatchObject({ status: 204, body: '' });
      expect(answer.headers).toMatchObject({
        'access-control-allow-origin': PAGE,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '3600',
      });
      expect(answer.headers['content-length']).toBeUndefined();
    });
  });

  it('a preflight from another origin: 204 with no CORS headers; its POST is refused with 403', async () => {
    await withStart({}, async (mcp) => {
      const answer = await preflight(mcp, 'POST', 'https://elsewhere.example');
      expect(answer.status).toBe(204);
      expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect((await post(mcp, 'https://elsewhere.example')).status).toBe(403);
    });
  });

  it('the answer to an allowed origin carries its CORS headers, the challenge header readable', async () => {
    await withStart({}, async (mcp) => {
      const answer = await post(mcp, PAGE);
      expect(answer.status).toBe(200);
      expect(answer.headers).toMatchObject({
        'access-control-allow-origin': PAGE,
        'access-control-expose-headers': 'www-authenticate',
      });
    });
  });

  it('MCP_ALLOWED_ORIGINS decides, as allowedOrigins does when deployed', async () => {
    await withStart({ MCP_ALLOWED_ORIGINS: 'https://app.example.com' }, async (mcp) => {
      const app = await preflight(mcp, 'POST', 'https://app.example.com');
      expect(app.headers['access-control-allow-origin']).toBe('https://app.example.com');
      const local = await preflight(mcp);
      expect(local.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});

describe('npm start with local authorization answers browsers on every path they call', () => {
  it('preflights on the metadata, the bridge and the endpoint allow POST and GET; documents name the origin', async () => {
    await withStart({ MCP_AUTH_MODE: 'oauth' }, async (mcp) => {
      const origin = new URL(mcp).origin;
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-authorization-server',
        '/oauth/register',
        '/oauth/token',
        '/mcp',
      ]) {
        const answer = await preflight(`${origin}${path}`, path.startsWith('/.well-known') ? 'GET' : 'POST');
        expect(answer.status, path).toBe(204);
        expect(answer.headers, path).toMatchObject({
          'access-control-allow-origin': PAGE,
          'access-control-allow-methods': 'POST,GET',
        });
      }
      const metadata = await send(`${origin}/.well-known/oauth-authorization-server`, 'GET', {
        origin: PAGE,
      });
      expect(metadata.status).toBe(200);
      expect(metadata.headers['access-control-allow-origin']).toBe(PAGE);
      const challenge = await post(mcp, PAGE);
      expect(challenge.status).toBe(401);
      expect(challenge.headers['access-control-expose-headers']).toBe('www-authenticate');
    });
  });
});

describe('npm start with LOCAL_API=rest-streaming answers like the REST API', () => {
  it("the MCP path's OPTIONS method: 204, POST, GET and DELETE, Vary: Origin", async () => {
    await withStart({ LOCAL_API: 'rest-streaming' }, async (mcp) => {
      const answer = await send(mcp, 'OPTIONS', { origin: PAGE });
      expect(answer.status).toBe(204);
      expect(answer.headers).toMatchObject({
        'access-control-allow-origin': PAGE,
        'access-control-allow-methods': 'POST,GET,DELETE',
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '3600',
        vary: 'Origin',
      });
      const answered = await post(mcp, PAGE);
      expect(answered.headers['access-control-allow-origin']).toBe(PAGE);
    });
  });
});
