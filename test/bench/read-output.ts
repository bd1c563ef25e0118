/**
 * Part 6: read_output over a 100 MB stored output, through the local stack as `npm start` runs it: the bundled MCP
 * function behind the local server and the bundled companion function behind the Lambda Invoke API stand-in, each
 * in its own process, with the embedded S3 server. The output is written as the offloader writes it (20 parts and
 * the layout on the first); then one page from its middle, lines near its end, and a search that scans all of it.
 * Each function process's RSS is read after a full GC before and after each step, with its peak in between.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '@mcp-lambda/dev';
import { createOffloader, silentLogger } from '@mcp-lambda/server/lambda';
import { s3Storage } from '@mcp-lambda/server/aws';
import { messagesOf, toolCallRequest } from '@mcp-lambda/dev/load';
import type { Artifacts } from './bundle.ts';
import { startServeChild, type MemoryStats, type ServeChild } from './serve-child.ts';
import type { ChildRuntime } from './probe.ts';
import { pageOf } from '@mcp-lambda/dev/testing';

const BUCKET = 'bench-read-outputs';
const COMPANION = 'mcp-resources-bench';
/** The size of issue 10: a page of a 100 MB output must not load it. */
const READ_OUTPUT_BYTES = 100_000_000;
const NEEDLE = 'needle-7f3a';

/** Memory of one function process over one step. */
interface StepMemory {
  /** RSS after the step less RSS before it, both after a full GC. */
  rssGrowthBytes: number;
  /** Peak RSS during the step less RSS before it. */
  peakGrowthBytes: number;
  peakRssBytes: number;
}

/** One step: what was read, how many calls it took, how long, whether the answer was right, and memory. */
interface ReadStep {
  label: string;
  calls: number;
  ms: number;
  verified: boolean;
  mcp: StepMemory;
  companion: StepMemory;
}

export interface ReadOutputResult {
  outputBytes: number;
  parts: number;
  steps: ReadStep[];
}

/** CSV-like lines (about 40 bytes each) up to `bytes`, the needle on three lines: near the start, middle and end. */
function bigText(bytes: number): { text: string; lines: string[]; needles: number[] } {
  const lines: string[] = [];
  let size = 0;
  const regions = ['north', 'south', 'east', 'west'];
  for (let i = 1; size < bytes; i++) {
    const line = `${i},2026-11-${String(1 + (i % 28)).padStart(2, '0')},${regions[i % 4]},${(i * 7919) % 1000}`;
    lines.push(line);
    size += line.length + 1;
  }
  const needles = [10, Math.floor(lines.length / 2), lines.length - 10];
  for (const n of needles) lines[n - 1] = `${lines[n - 1]},${NEEDLE}`;
  return { text: `${lines.join('\n')}\n`, lines, needles };
}

async function callTool(url: string, name: string, args: Record<string, unknown>): Promise<any> {
  const request = toolCallRequest(name, args, { era: 'handshake' });
  const response = await fetch(url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(60_000),
  });
  const body = await response.text();
  const [message] = messagesOf(response.headers.get('content-type') ?? undefined, body) as { result?: any }[];
  if (!message?.result) throw new Error(`read_output benchmark: ${name} failed (HTTP ${response.status})`);
  return message.result;
}

const delta = (before: MemoryStats, after: MemoryStats): StepMemory => {
  const peak = after.windowPeakRssBytes ?? after.maxRssBytes;
  return {
    rssGrowthBytes: after.rssBytes - before.rssBytes,
    peakGrowthBytes: Math.max(0, peak - before.rssBytes),
    peakRssBytes: peak,
  };
};

/** Runs a step between two memory readings of both processes. */
async function step(
  label: string,
  children: { mcp: ServeChild; companion: ServeChild },
  run: () => Promise<{ calls: number; verified: boolean }>,
): Promise<ReadStep> {
  const before = {
    mcp: await children.mcp.stats(true, true),
    companion: await children.companion.stats(true, true),
  };
  const started = performance.now();
  const { calls, verified } = await run();
  const ms = performance.now() - started;
  const after = { mcp: await children.mcp.stats(true), companion: await children.companion.stats(true) };
  return {
    label,
    calls,
    ms,
    verified,
    mcp: delta(before.mcp, after.mcp),
    companion: delta(before.companion, after.companion),
  };
}

/** Writes the output as the MCP function would: through the offloader, into the local S3 server. */
async function storeOutput(endpoint: string, text: string): Promise<{ uri: string; parts: number }> {
  const storage = s3Storage({ bucket: BUCKET, endpoint, credentials: { ...LOCAL_S3_CREDENTIALS } });
  const offloader = createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 32 * 1024, ttlDays: 1 });
  const result = await offloader.apply(
    { content: [{ type: 'text', text }] },
    { tool: 'bench', requestId: 'bench', log: silentLogger },
  );
  const links = result.content.filter((b) => b.type === 'resource_link');
  if (links.length === 0) throw new Error('read_output benchmark: the output was not stored');
  return { uri: links[0]!.uri, parts: links.length };
}

/** The steps over the stored output, each checked against the text. */
function steps(url: string, uri: string, big: ReturnType<typeof bigText>) {
  const middle = Math.floor(big.text.length / 2);
  return [
    [
      `one page from the middle (offset ${middle.toLocaleString('en-US')})`,
      async () => {
        const page = pageOf(await callTool(url, 'read_output', { uri, offset: middle }));
        return { calls: 1, verified: page.text === big.text.slice(page.offset, page.offset + page.length) };
      },
    ],
    [
      `100 lines near the end (line ${(big.lines.length - 150).toLocaleString('en-US')})`,
      async () => {
        const line = big.lines.length - 150;
        const page = pageOf(await callTool(url, 'read_output', { uri, line, count: 100 }));
        return {
          calls: 1,
          verified: page.text === `${big.lines.slice(line - 1, page.lastLine).join('\n')}\n`,
        };
      },
    ],
    [
      'a search over all of it (3 matching lines)',
      async () => {
        const found: number[] = [];
        let line: number | undefined = 1;
        let calls = 0;
        while (line !== undefined) {
          const page: any = pageOf(
            await callTool(url, 'read_output', { uri, search: NEEDLE, line, context: 0 }),
          );
          calls++;
          found.push(...page.search.matches);
          line = page.nextLine;
        }
        return { calls, verified: JSON.stringify(found) === JSON.stringify(big.needles) };
      },
    ],
  ] as const;
}

/** Measures the steps over a 100 MB output, after an untimed warm-up on a small one (SDKs loaded, validators). */
export async function measureReadOutput(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  progress: (message: string) => void,
  bytes = READ_OUTPUT_BYTES,
): Promise<ReadOutputResult> {
  if (!artifacts.resources) throw new Error('read_output benchmark: the companion bundle was not built');
  const directory = await mkdtemp(join(tmpdir(), 'mcp-bench-read-'));
  const s3 = await startLocalS3({ directory, bucket: BUCKET });
  const env = {
    OFFLOAD_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
  };
  const children: Partial<Record<'mcp' | 'companion', ServeChild>> = {};
  try {
    progress(`read_output: storing a ${(bytes / 1e6).toFixed(0)} MB output`);
    const big = bigText(bytes);
    const { uri, parts } = await storeOutput(s3.endpoint, big.text);
    children.companion = await startServeChild(runtime, artifacts, artifacts.resources.file, env, COMPANION);
    children.mcp = await startServeChild(runtime, artifacts, artifacts.servers.ours.file, {
      ...env,
      RESOURCES_FUNCTION_NAME: COMPANION,
      AWS_ENDPOINT_URL_LAMBDA: children.companion.url,
    });
    const { mcp, companion } = children as Required<typeof children>;
    const small = await callTool(mcp.url, 'generate_report', { rows: 20_000 });
    const smallUri = small.content.find((b: { type: string }) => b.type === 'resource_link').uri;
    for (const args of [{}, { line: 5 }, { search: 'west' }])
      await callTool(mcp.url, 'read_output', { uri: smallUri, ...args });
    const results: ReadStep[] = [];
    for (const [label, run] of steps(mcp.url, uri, big)) {
      progress(`read_output: ${label}`);
      results.push(await step(label, { mcp, companion }, run));
    }
    return { outputBytes: Buffer.byteLength(big.text), parts, steps: results };
  } finally {
    await children.mcp?.stop();
    await children.companion?.stop();
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  }
}
