/**
 * Part 4: the offload round trip. Our bundled function runs behind the local server with an embedded
 * S3-compatible server on loopback, as `npm start` runs it; a client calls `generate_report` for about 1 MB and
 * 20 MB of CSV, gets resource links instead of the text, reads every part back with `resources/read` over HTTP and
 * checks the bytes against the tool's own output.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateReport } from '../../src/tools/generate-report.ts';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '@mcp-lambda/dev';
import { messagesOf, rpcRequest, toolCallRequest, type WireRequest } from '@mcp-lambda/dev/load';
import { StreamedContent } from '@mcp-lambda/server';
import { collectStreamed, toolContext } from './baselines/tools.ts';
import type { Artifacts } from './bundle.ts';
import { startServeChild } from './serve-child.ts';
import type { ChildRuntime } from './probe.ts';
import type { OffloadResult } from './results.ts';
import { median } from './stats.ts';

const BUCKET = 'bench-outputs';
/** The output sizes of issues 5 and 14: 1 MB, 20 MB and 100 MB (the 100 MB one streamed by the tool as it is made). */
const OFFLOAD_SIZES = [1_000_000, 20_000_000, 100_000_000] as const;
/** The tool's row cap. */
const MAX_ROWS = 3_000_000;

/** The exact CSV `generate_report` returns for `rows` (the tool is deterministic). */
async function reportText(rows: number): Promise<string> {
  return (await collectStreamed(
    await generateReport.handler({ rows, seed: 1 }, toolContext(new AbortController().signal)),
  )) as string;
}

/** The row count whose report is closest to `bytes` (rows are about 40 bytes; the tool allows 3,000,000). */
async function rowsFor(bytes: number): Promise<number> {
  const sample = 10_000;
  const perRow = Buffer.byteLength(await reportText(sample)) / sample;
  return Math.max(1, Math.min(MAX_ROWS, Math.round(bytes / perRow)));
}

async function rpc(url: string, request: WireRequest): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(60_000),
  });
  const body = await response.text();
  const message = messagesOf(response.headers.get('content-type') ?? undefined, body)[0] as
    { result?: Record<string, unknown>; error?: { code: number; message: string } } | undefined;
  if (!response.ok || !message?.result) {
    const why = message?.error ? `${message.error.code} ${message.error.message}` : `HTTP ${response.status}`;
    throw new Error(`offload round trip failed: ${why}`);
  }
  return message.result;
}

interface Trip {
  callMs: number;
  readMs: number;
  parts: number;
  verified: boolean;
}

/** One round trip: the call, then every linked part read back in order and joined. */
async function roundTrip(url: string, rows: number, expectedSha256: string): Promise<Trip> {
  const options = { era: 'handshake' as const };
  const t0 = performance.now();
  const result = await rpc(url, toolCallRequest('generate_report', { rows, seed: 1 }, options));
  const t1 = performance.now();
  const links = (result.content as { type: string; uri?: string }[]).filter(
    (block) => block.type === 'resource_link' && block.uri?.startsWith('mcp-output:'),
  );
  if (links.length === 0)
    throw new Error('offload round trip failed: the output came back inline, not as a link');
  const hash = createHash('sha256');
  for (const link of links) {
    const read = await rpc(url, rpcRequest('resources/read', { uri: link.uri }, options));
    const [content] = read.contents as { text?: string; blob?: string }[];
    hash.update(
      content?.text !== undefined
        ? Buffer.from(content.text, 'utf8')
        : Buffer.from(content?.blob ?? '', 'base64'),
    );
  }
  const t2 = performance.now();
  return {
    callMs: t1 - t0,
    readMs: t2 - t1,
    parts: links.length,
    verified: hash.digest('hex') === expectedSha256,
  };
}

/** The SHA-256 of the report for `rows`, and its size, hashed block by block as the tool streams it. */
async function reportDigest(rows: number): Promise<{ sha256: string; bytes: number; toolMs: number }> {
  const started = performance.now();
  const result = await generateReport.handler({ rows, seed: 1 }, toolContext(new AbortController().signal));
  if (!(result instanceof StreamedContent)) throw new Error('generate_report no longer streams its output');
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of result.source) {
    const block = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    hash.update(block);
    bytes += block.byteLength;
  }
  return { sha256: hash.digest('hex'), bytes, toolMs: performance.now() - started };
}

/**
 * Measures each size `repeats` times (medians; the 100 MB output once), each size in a fresh function process so
 * its peak RSS is that size's own, after one untimed round trip that loads the S3 client.
 */
export async function measureOffload(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  progress: (message: string) => void,
  sizes: readonly number[] = OFFLOAD_SIZES,
  repeats = 3,
): Promise<OffloadResult[]> {
  const directory = await mkdtemp(join(tmpdir(), 'mcp-bench-s3-'));
  const s3 = await startLocalS3({ directory, bucket: BUCKET });
  try {
    const results: OffloadResult[] = [];
    for (const size of sizes) {
      const child = await startServeChild(runtime, artifacts, artifacts.servers.ours.file, {
        OFFLOAD_BUCKET: BUCKET,
        S3_ENDPOINT: s3.endpoint,
        AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
      });
      try {
        const warmRows = await rowsFor(100 * 1024);
        await roundTrip(child.url, warmRows, (await reportDigest(warmRows)).sha256);
        let rows = await rowsFor(size);
        let expected = await reportDigest(rows);
        // Rows grow longer further into the report, so the sample's estimate runs over: one correction from the
        // measured size brings the output to within a fraction of a percent (the exact size is reported).
        if (Math.abs(expected.bytes - size) > size / 500) {
          rows = Math.min(MAX_ROWS, Math.round((rows * size) / expected.bytes));
          expected = await reportDigest(rows);
        }
        const trips: Trip[] = [];
        const times = size >= 50_000_000 ? 1 : repeats;
        for (let i = 0; i < times; i++) {
          progress(`offload round trip: ${(size / 1e6).toFixed(0)} MB, ${i + 1}/${times}`);
          trips.push(await roundTrip(child.url, rows, expected.sha256));
        }
        const { maxRssBytes } = await child.stats(false);
        results.push({
          outputBytes: expected.bytes,
          toolMs: expected.toolMs,
          callMs: median(trips.map((t) => t.callMs)),
          readMs: median(trips.map((t) => t.readMs)),
          parts: trips[0]!.parts,
          verified: trips.every((t) => t.verified),
          runs: times,
          peakRssBytes: maxRssBytes,
        });
      } finally {
        await child.stop();
      }
    }
    return results;
  } finally {
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  }
}
