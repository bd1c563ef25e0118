import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { isLoopbackHost } from '../local/loopback-only.ts';
import { viewCsp, type DeclaredCsp } from './csp.ts';

/**
 * A local host for views (`npm run view`): a page that plays the host's part with the official host side
 * (`AppBridge` of `@modelcontextprotocol/ext-apps`), connected to an MCP server through the SDK 2.x client. The
 * page reaches the server through this process (`/mcp`, forwarded), so the server sees an allowed local origin;
 * each view document is served back from `/frames/<id>` with the spec's Content-Security-Policy as a real header,
 * into an iframe sandboxed to scripts only (an opaque origin: it cannot touch the page).
 */

/** Where the host listens and which server it shows. */
export interface ViewHostOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp` (`npm start`). */
  mcpUrl: string;
  /** Port on 127.0.0.1; 0 (the default) lets the system choose. */
  port?: number;
}

export interface ViewHost {
  url: string;
  close(): Promise<void>;
}

/** The page's entry beside this module: its source inside this repository, its built module in the package. */
const PAGE_ENTRY = fileURLToPath(
  new URL(`./page/main${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);
/** Documents kept for their frames (the newest); a view document is a few tens of KB. */
const MAX_FRAMES = 50;
const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

const PAGE = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  '<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="stylesheet" href="/host.css">' +
  '</head><body><script type="module" src="/host.js"></script></body></html>';

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether a request is the page's own: to a loopback Host (a DNS-rebinding page names its own), and what changes
 * something (the forwarded MCP requests, a frame's document) from the page's origin, as JSON. The MCP server
 * behind checks Host and Origin too, but sees this host's, so the check is made here.
 */
function fromOwnPage(req: IncomingMessage, path: string, mcpPath: string): boolean {
  if (!isLoopbackHost(req.headers.host)) return false;
  if (path !== mcpPath && !(req.method === 'POST' && path === '/frames')) return true;
  const { origin } = req.headers;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return false;
  return req.method !== 'POST' || path !== '/frames' || req.headers['content-type'] === 'application/json';
}

/** Forwards a request to the MCP endpoint as it is, and its answer (JSON or an event stream) back. */
function forward(target: URL, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...req.headers, host: target.host };
  const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`The MCP server at ${target.href} did not answer: ${error.message}`);
  });
  req.pipe(upstream);
}

/** The host page's script and style, bundled for the browser. */
async function bundlePage(): Promise<{ script: string; style: string }> {
  const bundle = await build({
    entryPoints: [PAGE_ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: 'host-out',
    minify: true,
    logLevel: 'warning',
  });
  const script = bundle.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
  const style = bundle.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
  return { script, style };
}

/** Starts the host; the page's script is bundled once, at start. */
export async function startViewHost(options: ViewHostOptions): Promise<ViewHost> {
  const target = new URL(options.mcpUrl);
  const { script, style } = await bundlePage();
  const frames = new Map<string, { html: string; csp: string }>();

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    // A request target that is no path (`//`, `*`) names nothing here: 404, as any other unknown path.
    const url = req.url ?? '/';
    const path = URL.canParse(url, 'http://host') ? new URL(url, 'http://host').pathname : '';
    try {
      if (!fromOwnPage(req, path, target.pathname)) {
        res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
        return res.end('only the local host page may call this');
      }
      if (path === target.pathname) return await forward(target, req, res);
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(PAGE('Local MCP Apps host'));
      }
      if (req.method === 'GET' && (path === '/host.js' || path === '/host.css')) {
        res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/css' });
        return res.end(path.endsWith('.js') ? script : style);
      }
      if (req.method === 'POST' && path === '/frames') {
        const { html, csp } = JSON.parse((await readBody(req, MAX_DOCUMENT_BYTES)).toString('utf8')) as {
          html: string;
          csp?: DeclaredCsp;
        };
        const id = randomBytes(16).toString('hex');
        frames.set(id, { html: String(html), csp: viewCsp(csp) });
        for (const old of frames.keys()) if (frames.size > MAX_FRAMES) frames.delete(old);
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ src: `/frames/${id}` }));
      }
      const frame =
        req.method === 'GET' && path.startsWith('/frames/') ? frames.get(path.slice(8)) : undefined;
      if (frame) {
        res.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          // Sandboxed as the page's iframe is, also when a frame's URL is opened on its own.
          'content-security-policy': `${frame.csp}; sandbox allow-scripts`,
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-store',
        });
        return res.end(frame.html);
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    } catch (error) {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`Bad request: ${(error as Error).message}`);
    }
  };
  // A request that fails past its own handling (a forward cut midway) ends its connection, never the host.
  const server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
