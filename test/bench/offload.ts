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
import { generateReport } from '../../functions/mcp/tools/generate-report.ts';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '../../src/local/s3.ts';
import { messagesOf } from '../load/classify.ts';
import { rpcRequest, toolCallRequest, type WireRequest } from '../load/mcp-request.ts';
import { collectStreamed, toolContext } from './baselines/tools.ts';
import type { Artifacts } from './bundle.ts';
import { startServeChild } from './http.ts';
import type { ChildRuntime } from './probe.ts';
import type { OffloadResult } from './results.ts';
import { median } from './stats.ts';

const BUCKET = 'bench-outputs';
/** The output sizes of issue 5: 1 MB and 20 MB (the tool's 500,000-row cap makes the larger one 19.9 MB). */
export const OFFLOAD_SIZES = [1_000_000, 20_000_000] as const;

/** The exact CSV `generate_report` returns for `rows` (the tool is deterministic). */
export async function reportText(rows: number): Promise<string> {
  return (await collectStreamed(
    await generateReport.handler({ rows, seed: 1 }, toolContext(new AbortController().signal)),
  )) as string;
}

/** The row count whose report is closest to `bytes` (rows are about 40 bytes; the tool allows 500,000). */
export async function rowsFor(bytes: number): Promise<number> {
  const sample = 10_000;
  const perRow = Buffer.byteLength(await reportText(sample)) / sample;
  return Math.max(1, Math.min(500_000, Math.round(bytes / perRow)));
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
  const options = { era: 'legacy' as const };
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

/** Measures each size `repeats` times (medians), after one untimed round trip that loads the S3 client. */
export async function measureOffload(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  progress: (message: string) => void,
  sizes: readonly number[] = OFFLOAD_SIZES,
  repeats = 3,
): Promise<OffloadResult[]> {
  const directory = await mkdtemp(join(tmpdir(), 'mcp-bench-s3-'));
  const s3 = await startLocalS3({ directory, bucket: BUCKET });
  const child = await startServeChild(runtime, artifacts, artifacts.servers.ours.file, {
    OFFLOAD_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
  });
  try {
    const warmRows = await rowsFor(100 * 1024);
    await roundTrip(child.url, warmRows, sha256(await reportText(warmRows)));
    const results: Omit<OffloadResult, 'peakRssBytes'>[] = [];
    for (const size of sizes) {
      const rows = await rowsFor(size);
      const started = performance.now();
      const text = await reportText(rows);
      const toolMs = performance.now() - started;
      const expected = sha256(text);
      const trips: Trip[] = [];
      for (let i = 0; i < repeats; i++) {
        progress(`offload round trip: ${(size / 1e6).toFixed(0)} MB, ${i + 1}/${repeats}`);
        trips.push(await roundTrip(child.url, rows, expected));
      }
      results.push({
        outputBytes: Buffer.byteLength(text),
        toolMs,
        callMs: median(trips.map((t) => t.callMs)),
        readMs: median(trips.map((t) => t.readMs)),
        parts: trips[0]!.parts,
        verified: trips.every((t) => t.verified),
      });
    }
    const { maxRssBytes } = await child.stats(false);
    return results.map((r) => ({ ...r, peakRssBytes: maxRssBytes }));
  } finally {
    await child.stop();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
