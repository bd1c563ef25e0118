import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL_MODULES } from '@mcp-lambda/cdk/bundling';
import { buildArtifacts, type Artifacts } from '../bench/bundle.ts';
import type { ColdStartReport, WarmReport } from '../bench/children/protocol.ts';
import { failuresOf } from '../bench/http.ts';
import { startServeChild } from '../bench/serve-child.ts';
import { measureOffload } from '../bench/offload.ts';
import { measureReadOutput } from '../bench/read-output.ts';
import { measureStreaming } from '../bench/stream.ts';
import { measureViews } from '../bench/views.ts';
import { lambdaEnvironment, runProbe, type ChildRuntime } from '../bench/probe.ts';
import { COLD_START_CALL, requestFor, THROUGHPUT_CALL } from '../bench/variants.ts';
import { fire } from '@mcp-lambda/dev/load';
import { builtinModules } from 'node:module';

/** One short pass over every piece of `npm run bench`, never timed: the bundles build and every probe answers. */

let dir: string;
let artifacts: Artifacts;
const runtime: ChildRuntime = { node: process.execPath, execArgv: ['--enable-source-maps'] };

beforeAll(async () => {
  // Inside the checkout, so the bundles resolve their external modules from node_modules.
  await mkdir(join(process.cwd(), '.local'), { recursive: true });
  dir = await mkdtemp(join(process.cwd(), '.local', 'bench-test-'));
  artifacts = await buildArtifacts(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Node built-ins, with or without `node:` (the X-Ray SDK behind MCP_TRACING requires them bare).
const externalAllowed = (name: string) =>
  name.startsWith('node:') ||
  builtinModules.includes(name) ||
  EXTERNAL_MODULES.some((pattern) =>
    pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
  );

describe('the benchmark pieces', () => {
  it('bundles ours and both baselines, and lists what each bundle holds', () => {
    for (const bundle of Object.values(artifacts.servers)) {
      expect(bundle.bytes).toBeGreaterThan(1000);
      expect(bundle.parts.reduce((sum, p) => sum + p.bytes, 0)).toBeLessThanOrEqual(bundle.bytes);
      expect(bundle.external.filter((name) => !externalAllowed(name))).toEqual([]);
    }
    expect(artifacts.servers.sdk2.parts.map((p) => p.name)).toContain('@modelcontextprotocol/server');
    expect(artifacts.servers.sdk1.parts.map((p) => p.name)).toContain('@modelcontextprotocol/sdk');
  });

  it.each(['ours', 'sdk2', 'sdk1'] as const)(
    'answers a cold-start tools/call from the %s bundle in a fresh process',
    async (server) => {
      const report = await runProbe<ColdStartReport>(
        runtime,
        artifacts.children.coldStart,
        [
          artifacts.servers[server].file,
          JSON.stringify({ request: requestFor({ era: 'handshake' }, COLD_START_CALL) }),
        ],
        lambdaEnvironment(),
        30_000,
      );
      expect(report.outcome).toBe('ok');
      expect(report.answered).toBeGreaterThanOrEqual(report.imported);
    },
  );

  it('calls the warm handler back to back without a failure', async () => {
    const report = await runProbe<WarmReport>(
      runtime,
      artifacts.children.warm,
      [
        artifacts.servers.ours.file,
        JSON.stringify({
          request: requestFor({ era: 'stateless' }, THROUGHPUT_CALL),
          warmupCalls: 10,
          durationMs: 100,
        }),
      ],
      lambdaEnvironment(),
      30_000,
    );
    expect(report.failures).toBe(0);
    expect(report.calls).toBeGreaterThan(0);
  });

  it.each(['ours', 'bare', 'emulation'] as const)(
    'serves the %s server on loopback for the load command and reports its memory',
    async (target) => {
      const child = await startServeChild(
        runtime,
        artifacts,
        target === 'ours' ? artifacts.servers.ours.file : target,
      );
      try {
        expect(child.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        const request = requestFor({ era: 'handshake' }, THROUGHPUT_CALL);
        const report = await fire(
          {
            url: child.url,
            tool: 'ping',
            args: {},
            connections: 2,
            durationS: 1,
            amount: 50,
            headers: {},
            era: 'handshake',
            initialize: false,
            timeoutS: 5,
            json: false,
          },
          { request, protocolVersion: '2025-11-25', first: { outcome: 'ok' } },
        );
        expect(failuresOf(report)).toBe(0);
        expect(report.outcomes.ok).toBeGreaterThanOrEqual(50);
        const stats = await child.stats(true);
        expect(stats.maxRssBytes).toBeGreaterThanOrEqual(stats.rssBytes);
      } finally {
        await child.stop();
      }
    },
  );

  it('stores a large output in the local S3 server and reads every byte of it back', async () => {
    const [trip] = await measureOffload(artifacts, runtime, () => undefined, [200_000], 1);
    expect(trip).toMatchObject({ parts: 1, verified: true });
    expect(trip!.outputBytes).toBeGreaterThan(150_000);
  });

  it("reads pages of a stored output through both function bundles, and reports both processes' memory", async () => {
    const result = await measureReadOutput(artifacts, runtime, () => undefined, 2_000_000);
    expect(result.steps.map((s) => [s.calls, s.verified])).toEqual([
      [1, true],
      [1, true],
      [1, true],
    ]);
    for (const step of result.steps) expect(step.companion.peakRssBytes).toBeGreaterThan(0);
  });

  it('measures the first streamed event in both modes: streamed, it arrives before the response', async () => {
    const [buffered, streamed] = await measureStreaming(1);
    expect(buffered).toMatchObject({ api: 'http', calls: 1 });
    expect(streamed).toMatchObject({ api: 'rest-streaming', calls: 1 });
    expect(streamed!.firstEventMs).toBeLessThan(streamed!.responseMs);
    expect(buffered!.firstEventMs).toBe(buffered!.responseMs);
  });
});

describe('the views part', () => {
  it('sizes every view beside the App class, reads each first and warm, and times a paint where there is a browser', async () => {
    const views = await measureViews(artifacts, runtime, 1, () => undefined);
    expect(views.sizes.map((v) => v.name)).toEqual(['approval', 'chart', 'output-viewer']);
    expect(views.appClass.gzipBytes).toBeGreaterThan(Math.max(...views.sizes.map((v) => v.gzipBytes)));
    expect(views.reads.map((r) => r.name)).toEqual(['approval', 'chart', 'output-viewer']);
    if (!('skipped' in views.paints))
      expect(views.paints.map((p) => p.name)).toEqual(['output-viewer', 'chart', 'approval']);
  }, 120_000);
});
