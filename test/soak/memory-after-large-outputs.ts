/**
 * Soak: does `npm start` keep memory after large outputs? Starts `npm start` (`mcp-lambda-dev start`, with the
 * embedded S3 and the companion function in the same process) with the inspector on loopback, has it produce and
 * page through several 500,000-row reports, then floods it with small requests, round after round. After each
 * phase it forces two full garbage collections in the server process and samples its memory:
 *
 * - a JavaScript retention (a part buffer, a cache, the local S3 keeping objects) shows as `heap used` or
 *   `external` staying above the baseline after collection, and growing with each round;
 * - the allocator shows as RSS above the baseline while heap and external are back down, and RSS levelling off
 *   round after round (glibc keeps freed pages in its arenas; V8 keeps heap pages committed).
 *
 * Not part of `npm test` (minutes, and figures that depend on the machine):
 *   node --import tsx test/soak/memory-after-large-outputs.ts [--outputs 5] [--rows 500000] [--flood 3000]
 *     [--rounds 5] [--concurrency 16] [--natural] [--parallel]
 * With --natural no collection is forced until the end: RSS and heap as a user watching `ps` sees them.
 * Any environment passes through to the server (compare `MALLOC_ARENA_MAX=2`, for example).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEV_BIN } from '../support/npm-start.ts';
import { connectInspector, type MemorySample } from './inspector.ts';

const { values } = parseArgs({
  options: {
    outputs: { type: 'string', default: '5' },
    rows: { type: 'string', default: '500000' },
    flood: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
    // Leave the server alone between phases (no forced collection) and only look, as a user watching `ps` does.
    natural: { type: 'boolean', default: false },
    // Produce the outputs all at once instead of one after another (the peak a busy server reaches).
    parallel: { type: 'boolean', default: false },
  },
});
const OUTPUTS = Number(values.outputs);
const ROWS = Number(values.rows);
const FLOOD = Number(values.flood);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
const IDLE_MS = 30_000;

const root = fileURLToPath(new URL('../../', import.meta.url));
const s3Dir = mkdtempSync(join(tmpdir(), 'soak-s3-'));

/** `npm start` with the inspector: the endpoint URL and the inspector URL, once both are printed. */
async function startServer() {
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', DEV_BIN, 'start'], {
    cwd: root,
    env: { ...process.env, PORT: '0', LOCAL_S3_DIR: s3Dir, POWERTOOLS_LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const found = new Promise<{ mcp: string; inspector: string }>((resolve, reject) => {
    const check = () => {
      const mcp = /"message":"listening","url":"([^"]+)"/.exec(out)?.[1];
      const inspector = /Debugger listening on (ws:\/\/\S+)/.exec(err)?.[1];
      if (mcp && inspector) resolve({ mcp, inspector });
    };
    child.stdout.on('data', (chunk: Buffer) => ((out += chunk), check()));
    child.stderr.on('data', (chunk: Buffer) => ((err += chunk), check()));
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${err.slice(-2000)}`)));
  });
  return { child, ...(await found) };
}

let nextId = 1;
/** One JSON-RPC request to the endpoint (handshake era, JSON answer). */
async function rpc(mcp: string, method: string, params: Record<string, unknown> = {}) {
  const res = await fetch(mcp, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const body = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!res.ok || body.error) throw new Error(`${method}: ${res.status} ${JSON.stringify(body.error)}`);
  return body.result!;
}

/** Produces one report, then reads three pages of it through read_output (the companion, the local S3). */
async function largeOutput(mcp: string, seed: number): Promise<void> {
  const result = await rpc(mcp, 'tools/call', { name: 'generate_report', arguments: { rows: ROWS, seed } });
  const content = result.content as { type: string; uri?: string }[];
  const uri = content.find((block) => block.type === 'resource_link')?.uri;
  if (!uri)
    throw new Error('generate_report answered without a resource_link: is the output below the threshold?');
  for (const query of [{}, { line: Math.floor(ROWS / 2) }, { search: 'north' }])
    await rpc(mcp, 'tools/call', { name: 'read_output', arguments: { uri, ...query } });
}

/** FLOOD small requests (ping calls and tool lists), CONCURRENCY at a time. */
async function flood(mcp: string): Promise<void> {
  let sent = 0;
  const worker = async () => {
    while (sent < FLOOD) {
      sent += 1;
      if (sent % 2) await rpc(mcp, 'tools/call', { name: 'ping', arguments: {} });
      else await rpc(mcp, 'tools/list');
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const MB = (bytes: number) => (bytes / 1_000_000).toFixed(1).padStart(7);
const rows: [string, MemorySample][] = [];
/** After a phase: the sample, with collection unless --natural (then the figures as found, twice). */
const sampleOf = async (): Promise<MemorySample> => {
  if (!values.natural) return inspector.sample();
  const found = await inspector.peek();
  return { ...found, rssAsFound: found.rss, heapAsFound: found.heapUsed, resources: 0 };
};
const { child, mcp, inspector: inspectorUrl } = await startServer();
const inspector = await connectInspector(inspectorUrl);
rows.push(['baseline (started, idle)', await inspector.sample()]);
try {
  await rpc(mcp, 'tools/call', { name: 'ping', arguments: {} });
  await flood(mcp);
  rows.push([`after a first flood of ${FLOOD}`, await sampleOf()]);
  if (values.parallel) {
    await Promise.all(Array.from({ length: OUTPUTS }, (_, i) => largeOutput(mcp, i + 1)));
    rows.push([`after ${OUTPUTS} outputs at once`, await sampleOf()]);
  } else {
    for (let i = 1; i <= OUTPUTS; i++) {
      await largeOutput(mcp, i);
      rows.push([`after output ${i} of ${ROWS} rows`, await sampleOf()]);
    }
  }
  for (let round = 1; round <= ROUNDS; round++) {
    await flood(mcp);
    rows.push([`after flood ${round} of ${FLOOD}`, await sampleOf()]);
  }
  // V8 gives memory back on its own once a process is idle (its memory reducer): wait, then look before collecting.
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  rows.push([`idle ${IDLE_MS / 1000} s`, await sampleOf()]);
  rows.push(['then two full collections', await inspector.sample()]);
} finally {
  inspector.close();
  child.kill('SIGTERM');
  rmSync(s3Dir, { recursive: true, force: true });
}

console.log(
  'phase                        as found: rss MB  heap MB | after GC: rss MB  heap MB  external MB  buffers MB  handles',
);
const cell = (bytes: number) => MB(bytes).padStart(8);
for (const [phase, m] of rows)
  console.log(
    `${phase.padEnd(30)} ${cell(m.rssAsFound)} ${cell(m.heapAsFound)} |      ${cell(m.rss)} ${cell(m.heapUsed)} ${cell(m.external)}   ${cell(m.arrayBuffers)} ${String(m.resources).padStart(8)}`,
  );
const byPhase = (prefix: string) => rows.filter(([phase]) => phase.startsWith(prefix)).map(([, m]) => m);
const outputs = [...byPhase('after output'), ...byPhase(`after ${OUTPUTS} outputs`)];
const floods = byPhase('after flood');
const trend = (samples: MemorySample[], pick: (m: MemorySample) => number) =>
  samples.map((m) => MB(pick(m)).trim()).join(' → ');
console.log(
  `\nafter GC, output by output: heap ${trend(outputs, (m) => m.heapUsed)} MB, external ${trend(outputs, (m) => m.external)} MB, ` +
    `RSS ${trend(outputs, (m) => m.rss)} MB\n` +
    `flood by flood: RSS as found ${trend(floods, (m) => m.rssAsFound)} MB, after GC ${trend(floods, (m) => m.rss)} MB, ` +
    `heap after GC ${trend(floods, (m) => m.heapUsed)} MB`,
);

// The verdict (collected mode): JavaScript memory kept after collection must not grow once the first output has
// loaded what large outputs need (the S3 and Lambda clients, the companion, the paging code): a growth from the
// first output to the last flood is a retention to find (a heap snapshot of the server shows what holds it).
if (!values.natural) {
  const first = outputs[0]!;
  const end = floods.at(-1)!;
  const grown = end.heapUsed + end.external - (first.heapUsed + first.external);
  const limit = 5_000_000;
  console.log(
    `JavaScript memory kept after collection, first output to last flood: ${MB(grown).trim()} MB ` +
      `(${grown <= limit ? 'flat: nothing is retained' : 'GROWING: something is retained'})`,
  );
  if (grown > limit) process.exitCode = 1;
}
