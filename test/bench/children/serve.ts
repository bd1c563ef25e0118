/**
 * HTTP server child for the load runs: a bundled function behind the local API Gateway emulation (`npm start`'s
 * server); the same emulation in front of a handler that answers a fixed response (what the emulation alone
 * costs); a bare node:http server answering that fixed JSON-RPC response (the ceiling of this machine); or a
 * directly invoked bundle (the companion function) behind the local Lambda Invoke API stand-in.
 * Reports its URL and memory over IPC. Usage: node child-serve.mjs (BUNDLE [--invoke NAME] | --bare | --emulation)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  startLocalServer,
  type LambdaHttpHandler,
  startLocalLambda,
  type InvokedHandler,
} from '@mcp-lambda/dev';
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

/** A directly invoked bundle behind the Lambda Invoke API stand-in; its URL is the endpoint callers invoke. */
async function invoked(bundle: string, name: string): Promise<{ url: string; close(): Promise<void> }> {
  const { handler } = (await import(pathToFileURL(bundle).href)) as { handler: InvokedHandler };
  const local = await startLocalLambda({ functions: { [name]: handler } });
  return { url: local.endpoint, close: local.close };
}

/** Peak RSS since the last reset: VmHWM of /proc/self/status (Linux). */
function windowPeak(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Starts a new peak window: writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0 and later). */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux: the window peak stays the lifetime peak, which the report says.
  }
}

const [target, mode, name] = process.argv.slice(2);
try {
  const server =
    target === '--bare'
      ? await bare()
      : mode === '--invoke' && target && name
        ? await invoked(target, name)
        : await lambda(target === '--emulation' ? undefined : target);
  process.on('message', async (command: ServeCommand) => {
    if (command.type === 'stop') {
      await server.close();
      process.exit(0);
    }
    if (command.gc) globalThis.gc?.();
    // The current size first: the high-water mark read after it can only be as large or larger.
    const rssBytes = process.memoryUsage.rss();
    const maxRssBytes = process.resourceUsage().maxRSS * 1024;
    send({
      type: 'stats',
      rssBytes,
      maxRssBytes,
      heapUsedBytes: process.memoryUsage().heapUsed,
      windowPeakRssBytes: windowPeak() ?? maxRssBytes,
    });
    if (command.resetPeak) resetPeak();
  });
  send({ type: 'listening', url: server.url });
} catch (error) {
  send({ type: 'error', message: (error as Error).message });
  process.exit(1);
}
