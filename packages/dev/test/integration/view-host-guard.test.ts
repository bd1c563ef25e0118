import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewHost, type ViewHost } from '../../src/view-host/index.ts';

// `npm run view` forwards /mcp to the MCP server with its own Host, so the server's DNS-rebinding check sees the
// view host's: the view host checks Host and Origin itself. A page elsewhere (rebinding, or cross-site) neither
// reaches the server through it nor stores a frame document.

let mcp: Server;
let host: ViewHost;
let port: number;
const forwarded: string[] = [];
beforeAll(async () => {
  mcp = createServer((req, res) => {
    forwarded.push(`${req.method} ${req.headers.host}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  await new Promise<void>((ready) => mcp.listen(0, '127.0.0.1', () => ready()));
  const mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
  host = await startViewHost({ mcpUrl });
  port = Number(new URL(host.url).port);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await new Promise<void>((closed) => mcp.close(() => closed()));
});

const raw = (path: string, headers: Record<string, string>, method = 'GET', body = '') =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });

describe('the local view host answers its own page only', () => {
  it('refuses a rebinding Host on every path, and forwards nothing', async () => {
    const rebound = { host: `attacker.example:${port}` };
    expect(await raw('/', rebound)).toBe(403);
    expect(await raw('/mcp', { ...rebound, accept: 'text/event-stream' })).toBe(403);
    expect(await raw('/mcp', rebound, 'POST', '{}')).toBe(403);
    expect(forwarded).toEqual([]);
  });

  it('refuses another origin on /mcp and on /frames, and a frame posted as anything but JSON', async () => {
    const own = `127.0.0.1:${port}`;
    const foreign = { host: own, origin: 'https://attacker.example', 'content-type': 'application/json' };
    expect(await raw('/mcp', foreign, 'POST', '{}')).toBe(403);
    expect(await raw('/frames', foreign, 'POST', '{"html":"<p>x</p>"}')).toBe(403);
    const plain = { host: own, origin: `http://${own}`, 'content-type': 'text/plain' };
    expect(await raw('/frames', plain, 'POST', '{"html":"<p>x</p>"}')).toBe(403);
    expect(forwarded).toEqual([]);
  });

  it('answers a request target that is no path (`//`, as an <img> on any site can send it) and serves on', async () => {
    const own = { host: `127.0.0.1:${port}` };
    expect(await raw('//', own)).toBe(404);
    expect(await raw('/', own)).toBe(200);
  });

  it("serves its own page's requests: the page, a frame document, and /mcp forwarded", async () => {
    const own = `127.0.0.1:${port}`;
    const page = { host: own, origin: `http://${own}`, 'content-type': 'application/json' };
    expect(await raw('/', { host: own })).toBe(200);
    expect(await raw('/frames', page, 'POST', '{"html":"<p>x</p>"}')).toBe(200);
    expect(await raw('/mcp', page, 'POST', '{}')).toBe(200);
    expect(await raw('/', { host: `localhost:${port}` })).toBe(200);
    expect(forwarded).toHaveLength(1);
  });
});
