/**
 * Part 9: views (MCP Apps). Each view's size (bytes and gzip), beside a view that bundles the ext-apps SDK's `App`
 * class instead of the template's small client; the latency of `resources/read` of each view from the bundled MCP
 * function (the first read, which loads the view's chunk, and warm reads); and, in headless Chromium through the
 * local view host (`npm run view`) against the bundled functions, the time from the tool result reaching the view
 * to the view's first painted page.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '@mcp-lambda/dev';
import { startViewHost } from '@mcp-lambda/dev/view-host';
import { BASE_HEADERS } from '@mcp-lambda/dev/testing';
import { buildView, viewSources } from '@mcp-lambda/server/build';
import type { Artifacts } from './bundle.ts';
import { startServeChild, type ServeChild } from './serve-child.ts';
import type { ChildRuntime } from './probe.ts';
import { measurePaints, type ViewPaint } from './view-paint.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const BUCKET = 'bench-views';
const COMPANION = 'mcp-resources-bench-views';
const WARM_READS = 50;

interface ViewSize {
  name: string;
  bytes: number;
  gzipBytes: number;
}

interface ViewRead {
  name: string;
  firstMs: number;
  warmP50Ms: number;
  warmP99Ms: number;
}

export interface ViewsResult {
  sizes: ViewSize[];
  /** The smallest view written with the SDK's `App` class (it connects and shows the result as text). */
  appClass: ViewSize;
  reads: ViewRead[];
  paints: ViewPaint[] | { skipped: string };
}

const sized = (name: string, text: string): ViewSize => ({
  name,
  bytes: Buffer.byteLength(text),
  gzipBytes: gzipSync(text, { level: 9 }).length,
});

/** The smallest useful view on the SDK's `App` class, bundled as the views are (minified, for the browser). */
async function appClassView(): Promise<ViewSize> {
  const out = await build({
    stdin: {
      contents:
        "import { App } from '@modelcontextprotocol/ext-apps';\n" +
        "const app = new App({ name: 'baseline', version: '1.0.0' });\n" +
        'app.ontoolresult = (r) => { document.body.textContent = JSON.stringify(r); };\n' +
        'app.connect();\n',
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'error',
  });
  return sized('App class (baseline)', out.outputFiles[0]!.text);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** One resources/read of a view, timed; checks that a whole document came back. */
async function readView(url: string, uri: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: BASE_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }),
  });
  const body = (await res.json()) as { result?: { contents: { text: string }[] } };
  const ms = performance.now() - started;
  if (!body.result?.contents[0]?.text.startsWith('<!doctype html>'))
    throw new Error(`views benchmark: ${uri} read no document`);
  return ms;
}

/** First and warm reads of each view from a bundled MCP function that has served nothing yet. */
async function measureReads(url: string, names: string[]): Promise<ViewRead[]> {
  // One untimed request first, so the first read measures loading the view, not the process's first request.
  await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const reads: ViewRead[] = [];
  for (const name of names) {
    const uri = `ui://mcp-lambda/${name}`;
    const firstMs = await readView(url, uri);
    const warm: number[] = [];
    for (let i = 0; i < WARM_READS; i++) warm.push(await readView(url, uri));
    warm.sort((a, b) => a - b);
    reads.push({ name, firstMs, warmP50Ms: percentile(warm, 0.5), warmP99Ms: percentile(warm, 0.99) });
  }
  return reads;
}

/** Runs `measure` against the local stack of `npm start` from the bundles: S3, the companion, the MCP function. */
async function onLocalStack<T>(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  measure: (mcpUrl: string) => Promise<T>,
): Promise<T> {
  if (!artifacts.resources) throw new Error('views benchmark: the companion bundle was not built');
  const directory = await mkdtemp(join(tmpdir(), 'mcp-bench-views-'));
  const s3 = await startLocalS3({ directory, bucket: BUCKET });
  const env = {
    OFFLOAD_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
  };
  const children: ServeChild[] = [];
  try {
    const companion = await startServeChild(runtime, artifacts, artifacts.resources.file, env, COMPANION);
    children.push(companion);
    const mcp = await startServeChild(runtime, artifacts, artifacts.servers.ours.file, {
      ...env,
      RESOURCES_FUNCTION_NAME: COMPANION,
      AWS_ENDPOINT_URL_LAMBDA: companion.url,
      MCP_ALLOWED_ORIGINS: 'http://127.0.0.1:*',
      // As `npm start` does: a session key, so approval proofs are not signed with a key random to the instance
      // (which the server rightly warns about, and which no deployment has).
      MCP_SESSION_SECRET: randomBytes(32).toString('base64url'),
    });
    children.push(mcp);
    return await measure(mcp.url);
  } finally {
    for (const child of children.reverse()) await child.stop();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

/** The browser step through the local view host in front of the MCP function. */
async function measurePaintsThroughHost(mcpUrl: string, runs: number): Promise<ViewPaint[]> {
  const host = await startViewHost({ mcpUrl });
  try {
    return await measurePaints(CHROMIUM, host.url, mcpUrl, runs);
  } finally {
    await host.close();
  }
}

/** Measures the views part; the browser step is skipped, saying so, where there is no Chromium. */
export async function measureViews(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  paintRuns: number,
  progress: (message: string) => void,
): Promise<ViewsResult> {
  progress('views: sizes');
  const sources = viewSources(join(ROOT, 'src/views'));
  const sizes = await Promise.all(
    sources.map(async (v) => sized(v.name, (await buildView(v.name, v.entry)).html)),
  );
  const appClass = await appClassView();
  return onLocalStack(artifacts, runtime, async (mcpUrl) => {
    progress('views: resources/read, first and warm');
    const reads = await measureReads(
      mcpUrl,
      sources.map((v) => v.name),
    );
    progress('views: tool result to first painted page, headless Chromium');
    const paints = existsSync(CHROMIUM)
      ? await measurePaintsThroughHost(mcpUrl, paintRuns)
      : { skipped: `${CHROMIUM} is missing (apt-get install -y chromium)` };
    return { sizes, appClass, reads, paints };
  });
}
