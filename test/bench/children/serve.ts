/**
 * HTTP server child for the load runs: a bundled function behind the local API Gateway emulation (`npm start`'s
 * server); the same emulation in front of a handler that answers a fixed response (what the emulation alone
 * costs); or a bare node:http server answering that fixed JSON-RPC response (the ceiling of this machine).
 * Reports its URL and memory over IPC. Usage: node child-serve.mjs (BUNDLE | --bare | --emulation)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { startLocalServer, type LambdaHttpHandler } from '../../../src/local/dev-server.ts';
import type { ServeCommand, ServeMessage } from './protocol.ts';

/** What the bare server answers to every POST: the same bytes our server answers to `tools/call ping`. */
const FIXED_RESPONSE = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"pong"}]}}';

const send = (message: ServeMessage) => process.send!(message);

async function bare(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    // Read the whole body, as any real server must, then answer.
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(FIXED_RESPONSE),
      });
      res.end(FIXED_RESPONSE);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A Lambda handler that answers every event with the fixed response. */
const fixedHandler: LambdaHttpHandler = async () => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: FIXED_RESPONSE,
});

async function lambda(bundle: string | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const handler =
    bundle === undefined
      ? fixedHandler
      : ((await import(pathToFileURL(bundle).href)) as { handler: LambdaHttpHandler }).handler;
  const local = await startLocalServer({ handler, port: 0 });
  return { url: `${local.url}/mcp`, close: local.close };
}

const target = process.argv[2];
try {
  const server =
    target === '--bare' ? await bare() : await lambda(target === '--emulation' ? undefined : target);
  process.on('message', async (command: ServeCommand) => {
    if (command.type === 'stop') {
      await server.close();
      process.exit(0);
    }
    if (command.gc) globalThis.gc?.();
    send({
      type: 'stats',
      rssBytes: process.memoryUsage.rss(),
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      heapUsedBytes: process.memoryUsage().heapUsed,
    });
  });
  send({ type: 'listening', url: server.url });
} catch (error) {
  send({ type: 'error', message: (error as Error).message });
  process.exit(1);
}
