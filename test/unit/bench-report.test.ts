import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleParts, partName, startupOutputs } from '../bench/bundle.ts';
import { costTable } from '../bench/cost.ts';
import type { ColdStartResult } from '../bench/cold-start.ts';
import { formatBench, table } from '../bench/format.ts';
import type { HttpResult } from '../bench/http.ts';
import type { SoakResult } from '../bench/soak.ts';
import type { BenchResults } from '../bench/results.ts';
import { median, percentile } from '../bench/stats.ts';
import { evaluateTargets } from '../bench/targets.ts';
import { VARIANTS, type Variant } from '../bench/variants.ts';
import type { WarmResult } from '../bench/warm.ts';
import type { LoadReport } from '@mcp-lambda/dev/load';

describe('bundle composition from the esbuild metafile', () => {
  it.each([
    ['node_modules/ajv/dist/core.js', 'ajv'],
    ['node_modules/@aws-lambda-powertools/logger/lib/esm/Logger.js', '@aws-lambda-powertools/logger'],
    ['node_modules/@modelcontextprotocol/sdk/node_modules/zod/v4/core/core.js', 'zod'],
    ['packages/server/src/tools/registry.ts', 'server/tools'],
    ['packages/server/src/dispatcher.ts', 'server/dispatcher.ts'],
    ['src/tools/ping.ts', 'src/tools'],
    ['<runtime>', '<runtime>'],
  ])('names %s as part of %s', (input, name) => {
    expect(partName(input)).toBe(name);
  });

  it('sums bytes per package, largest first, and lists external imports once', () => {
    const metafile = {
      inputs: {},
      outputs: {
        'out/fn.mjs': {
          bytes: 100,
          entryPoint: 'functions/mcp/handler.ts',
          exports: ['handler'],
          imports: [
            { path: '@aws-sdk/client-s3', kind: 'dynamic-import', external: true },
            { path: '@aws-sdk/client-s3', kind: 'dynamic-import', external: true },
            { path: 'node:crypto', kind: 'import-statement', external: true },
          ],
          inputs: {
            'node_modules/ajv/a.js': { bytesInOutput: 30 },
            'node_modules/ajv/b.js': { bytesInOutput: 20 },
            'packages/server/src/tools/x.ts': { bytesInOutput: 40 },
          },
        },
      },
    } as unknown as Metafile;
    expect(bundleParts(metafile, 'out/fn.mjs')).toEqual({
      parts: [
        { name: 'ajv', bytes: 50 },
        { name: 'server/tools', bytes: 40 },
      ],
      external: ['@aws-sdk/client-s3', 'node:crypto'],
    });
  });

  it('counts as loaded at start the handler module and the chunks it imports statically, not the dynamic ones', () => {
    const out = (imports: { path: string; kind: string; external?: boolean }[]) => ({
      bytes: 1,
      imports: imports.map((i) => ({ external: false, ...i })),
      inputs: {},
    });
    const metafile = {
      inputs: {},
      outputs: {
        'out/index.mjs': out([
          { path: 'out/chunks/shared.mjs', kind: 'import-statement' },
          { path: 'out/chunks/lazy.mjs', kind: 'dynamic-import' },
          { path: 'node:fs', kind: 'import-statement', external: true },
        ]),
        'out/chunks/shared.mjs': out([{ path: 'out/chunks/deep.mjs', kind: 'import-statement' }]),
        'out/chunks/deep.mjs': out([]),
        'out/chunks/lazy.mjs': out([{ path: 'out/chunks/shared.mjs', kind: 'import-statement' }]),
      },
    } as unknown as Metafile;
    expect(startupOutputs(metafile, 'out/index.mjs').sort()).toEqual([
      'out/chunks/deep.mjs',
      'out/chunks/shared.mjs',
      'out/index.mjs',
    ]);
  });
});

describe('statistics', () => {
  it.each([
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
  ])('takes the median of %j as %d', (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 90), percentile(values, 100)]).toEqual([50, 90, 100]);
  });
});

const variant = (id: string): Variant => VARIANTS.find((v) => v.id === id)!;

const load = (rps: number, failed = 0): LoadReport => ({
  url: 'http://127.0.0.1:1/mcp',
  tool: 'ping',
  era: 'handshake',
  protocolVersion: '2025-11-25',
  model: 'closed',
  connections: 16,
  durationS: 5,
  requests: rps * 5,
  requestsPerSecond: rps,
  latencyMs: { p50: 1, p90: 2, p99: 3, max: 4, mean: 1.2 },
  errors: failed,
  timeouts: 0,
  outcomes: { ok: rps * 5, 'tool-error': 0, 'rpc-error': 0, 'non-2xx': 0, malformed: 0 },
  samples: {},
  passed: failed === 0,
});

function results(scale: {
  cold: number;
  warm: number;
  httpShare: number;
  bundleKb: number;
  soakGrowthMb: number;
}): BenchResults {
  const cold = (id: string, totalMs: number): ColdStartResult => ({
    variant: variant(id),
    runs: 3,
    totalMs,
    codeMs: totalMs - 50,
    importMs: (totalMs - 50) / 10,
    firstCallMs: ((totalMs - 50) * 9) / 10,
    samples: [totalMs],
    failures: 0,
  });
  const warm = (id: string, callsPerSecond: number): WarmResult => ({
    variant: variant(id),
    callsPerSecond,
    microsPerCall: 1e6 / callsPerSecond,
    samples: [callsPerSecond],
    failures: 0,
  });
  const http = (id: string, rps: number): HttpResult => ({
    id,
    ...(id === 'bare' ? {} : { variant: variant(id) }),
    report: load(rps),
    rounds: [rps],
    failures: 0,
    peakRssBytes: 80 * 2 ** 20,
  });
  // Memory settles after the first quarter, then grows by soakGrowthMb per quarter (0 = flat).
  const memory = (quarter: number) => ({
    rssBytes: (quarter === 0 ? 76 : 80 + scale.soakGrowthMb * quarter) * 2 ** 20,
    maxRssBytes: 90 * 2 ** 20,
    heapUsedBytes: (8 + scale.soakGrowthMb * quarter * 0.5) * 2 ** 20,
  });
  const soak: SoakResult = {
    calls: 100_000,
    checkpoints: [0, 1, 2, 3, 4].map((q) => ({ calls: q * 25_000, memory: memory(q) })),
    peakRssBytes: 90 * 2 ** 20,
    failures: 0,
    durationS: 20,
    requestsPerSecond: 5000,
    p99Ms: 9,
  };
  return {
    date: '2026-11-22T00:00:00.000Z',
    machine: {
      os: 'linux',
      cpu: 'test cpu',
      cores: 2,
      memoryGiB: 8,
      driverNode: 'v20',
      functionNode: 'v22',
      loadStart: 0.1,
      loadEnd: 0.2,
    },
    settings: {
      coldStartRuns: 3,
      warmRuns: 1,
      warmDurationMs: 1000,
      httpConnections: 16,
      httpDurationS: 5,
      httpRounds: 1,
      soakCalls: 100_000,
      streamCalls: 30,
      taskPolls: 1_000,
      viewPaintRuns: 3,
      execArgv: ['--enable-source-maps'],
    },
    bundles: [
      {
        label: 'ours',
        entry: 'functions/mcp/handler.ts',
        bytes: scale.bundleKb * 1024,
        totalBytes: scale.bundleKb * 1024 + 5000,
        lazyChunks: 3,
        gzipBytes: 1000,
        parts: [{ name: 'ajv', bytes: 1000 }],
        external: [],
      },
    ],
    coldStart: [
      cold('ours-stateless', 100),
      cold('ours-handshake', 100),
      cold('sdk2-stateless', 100 * scale.cold),
      cold('sdk2-handshake', 100 * scale.cold),
      cold('sdk1-handshake', 400),
    ],
    warm: [
      warm('ours-stateless', 1000 * scale.warm),
      warm('ours-handshake', 1000 * scale.warm),
      warm('sdk2-stateless', 1000),
      warm('sdk2-handshake', 1000),
      warm('sdk1-handshake', 1000),
    ],
    http: [
      http('bare', 10_000),
      http('ours-stateless', 10_000 * scale.httpShare),
      http('ours-handshake', 10_000 * scale.httpShare),
      http('sdk2-stateless', 1000),
    ],
    offload: { pending: 'not landed' },
    stream: [
      {
        api: 'http',
        calls: 30,
        workMs: 200,
        headersMs: 205,
        firstEventMs: 206,
        responseMs: 206,
        deliveryMs: 206,
        deliveryP95Ms: 210,
      },
      {
        api: 'rest-streaming',
        calls: 30,
        workMs: 200,
        headersMs: 2,
        firstEventMs: 3,
        responseMs: 206,
        deliveryMs: 1.2,
        deliveryP95Ms: 2.5,
      },
    ],
    soak,
    tasks: [
      { label: 'tasks/get, working task', polls: 1_000, p50Ms: 1.9, p99Ms: 4.2 },
      { label: 'tasks/get, completed task (1 KB result)', polls: 1_000, p50Ms: 2.1, p99Ms: 4.6 },
    ],
    targets: [],
    durationS: 120,
  };
}

const GOOD = { cold: 12, warm: 6, httpShare: 0.8, bundleKb: 80, soakGrowthMb: 0 };

describe('the targets of issue 5', () => {
  it('are all met by a run that reaches every goal', () => {
    const checks = evaluateTargets(results(GOOD));
    expect(checks.map((c) => [c.name, c.met])).toEqual([
      ['cold start vs SDK 2.x', true],
      ['cold start code time vs SDK 2.x', true],
      ['load+init of our bundle vs SDK 2.x', true],
      ['warm in-process throughput vs SDK 2.x', true],
      ['local HTTP throughput vs bare node:http', undefined],
      ['errors in every run', true],
      ['MCP function start-up graph (minified)', true],
      ['soak memory over 100,000 calls', true],
    ]);
  });

  it.each([
    ['cold start vs SDK 2.x', { cold: 2.5 }, 'short by 0.50x'],
    ['warm in-process throughput vs SDK 2.x', { warm: 4 }, 'short by 1.00x'],
    ['cold start code time vs SDK 2.x', { cold: 5 }, 'short: 9.0x'],
    ['MCP function start-up graph (minified)', { bundleKb: 190 }, 'over by 105.0 KB'],
    ['load+init of our bundle vs SDK 2.x', { cold: 5 }, 'over by 1.1 points'],
    ['soak memory over 100,000 calls', { soakGrowthMb: 3 }, 'growth in every quarter points to a leak'],
  ])('report %s as missed, and by how much', (name, change, note) => {
    const check = evaluateTargets(results({ ...GOOD, ...change })).find((c) => c.name === name)!;
    expect(check.met).toBe(false);
    if (note) expect(check.note).toContain(note);
  });

  it('report local HTTP throughput vs bare node:http as information only, retired by issue 14', () => {
    const check = evaluateTargets(results({ ...GOOD, httpShare: 0.6 })).find((c) =>
      c.name.startsWith('local HTTP'),
    )!;
    expect(check).toMatchObject({ met: undefined, goal: 'retired (was ≥ 70%)' });
    expect(check.information).toBe(true);
    expect(check.note).toContain('information only: 60% of bare');
  });

  it("judge the 100 MB offload by the store's throughput (the tool's own time apart), its bytes and the function peak RSS", () => {
    const row = (outputBytes: number, callMs: number, toolMs: number, peakMb: number, verified = true) => ({
      outputBytes,
      callMs,
      toolMs,
      readMs: callMs,
      parts: 1,
      verified,
      runs: 1,
      peakRssBytes: peakMb * 2 ** 20,
    });
    const judge = (big: ReturnType<typeof row>) =>
      evaluateTargets({ ...results(GOOD), offload: [row(1e6, 50, 20, 90), big] })
        .slice(-2)
        .map((c) => c.met);
    expect(judge(row(100e6, 3000, 1500, 150))).toEqual([true, true]);
    expect(judge(row(100e6, 3000, 500, 150))).toEqual([false, true]);
    expect(judge(row(100e6, 1500, 500, 250))).toEqual([true, false]);
    expect(judge(row(100e6, 1500, 500, 150, false))).toEqual([true, false]);
    const [throughput] = evaluateTargets({ ...results(GOOD), offload: [row(100e6, 3000, 1500, 150)] }).slice(
      -2,
    );
    expect(throughput!.measured).toBe(
      'store alone 66.7 MB/s; with the tool making it 33.3 MB/s (tools/call 3.0 s)',
    );
  });

  it('prices a million calls, cold starts included, at the memory each server fits', () => {
    const rows = costTable(results(GOOD));
    const ours = rows.find((r) => r.label === 'ours-handshake')!;
    // 80 MB peak fits 128 MB; warm 1e6/(1000*6) µs rounds up to 1 ms; cold code 50 ms.
    expect(ours).toMatchObject({ memoryMb: 128, warmBilledMs: 1, coldBilledMs: 50 });
    expect(ours.gbSeconds).toBeCloseTo(((0.99 * 1 + 0.01 * 50) * 1000 * 128) / 1024, 6);
    for (const sdk of rows.filter((r) => !r.label.startsWith('ours')))
      expect(sdk.ratio).toBeCloseTo(
        sdk.usd / rows.find((r) => r.label === `ours-${sdk.label.split('-')[1]}`)!.usd,
        6,
      );
    expect(costTable({ ...results(GOOD), warm: undefined })).toEqual([]);
  });

  it('count every failed request of every run as an error', () => {
    const run = results(GOOD);
    run.soak!.failures = 3;
    const check = evaluateTargets(run).find((c) => c.name === 'errors in every run')!;
    expect(check).toMatchObject({
      met: false,
      measured: '3 (HTTP 0, soak 3, warm 0, cold start 0, offload 0, read_output 0)',
    });
  });
});

describe('the targets of issue 10 (read_output over a 100 MB output)', () => {
  const memory = (peakMb: number) => ({
    rssGrowthBytes: 0,
    peakGrowthBytes: peakMb * 2 ** 20,
    peakRssBytes: (100 + peakMb) * 2 ** 20,
  });
  const run = (pagePeakMb: number, searchRight: boolean) => ({
    ...results(GOOD),
    readOutput: {
      outputBytes: 100_000_000,
      parts: 21,
      steps: [
        {
          label: 'one page',
          calls: 1,
          ms: 100,
          verified: true,
          mcp: memory(0.1),
          companion: memory(pagePeakMb),
        },
        { label: 'lines', calls: 1, ms: 80, verified: true, mcp: memory(0.1), companion: memory(20) },
        {
          label: 'search',
          calls: 2,
          ms: 1200,
          verified: searchRight,
          mcp: memory(0.1),
          companion: memory(40),
        },
      ],
    },
  });

  it('judge one page against 32 MB of RSS growth in each process, and the search by its answer', () => {
    const checks = evaluateTargets(run(12, true)).slice(-2);
    expect(checks.map((c) => [c.name, c.met])).toEqual([
      ['read_output: one page of 100 MB, RSS growth', true],
      ['read_output: search over 100 MB', true],
    ]);
    expect(checks[1]!.measured).toMatch(
      /all 3 matches in 2 calls, 1\.2 s; companion peak 140\.0 MB \(\+40\.0 MB\)/,
    );
    const missed = evaluateTargets(run(40, false));
    expect(missed.find((c) => c.name.startsWith('read_output: one page'))).toMatchObject({
      met: false,
      note: 'over by 8.0 MB',
    });
    expect(missed.find((c) => c.name === 'errors in every run')!.measured).toContain('read_output 1');
  });

  it('print a row per step with both processes', () => {
    const text = formatBench({ ...run(12, true), targets: [] });
    expect(text).toContain('7. read_output over a 100 MB stored output (21 parts)');
    expect(text).toMatch(/one page +1 +100 +yes +0\.0 +0\.1 +100\.1 +0\.0 +12\.0 +112\.0/);
  });
});

describe('the printed report', () => {
  it('aligns text left and numbers right under a rule', () => {
    expect(
      table(
        ['name', 'n'],
        [
          ['a', '1'],
          ['bb', '22'],
        ],
      ),
    ).toBe(['  name   n', '  ----  --', '  a      1', '  bb    22'].join('\n'));
  });

  it('shows every part, the ratios and the targets', () => {
    const run = results(GOOD);
    run.targets = evaluateTargets(run);
    const text = formatBench(run);
    for (const heading of [
      'Bundles',
      '1. Cold start',
      '2. Warm in-process',
      '3. HTTP',
      '4. Offload',
      '5. First streamed event',
      '6. Soak',
      '8. Tasks',
      'Targets',
    ]) {
      expect(text).toContain(heading);
    }
    expect(text).toContain('4.0x faster');
    expect(text).toContain('pending: not landed');
    expect(text).toMatch(/rest-streaming \(streaming adapter\) +2\.0 +3\.0 +206 +1\.2 +2\.5/);
    expect(text).toMatch(/tasks\/get, working task +1\.9 +4\.2/);
    expect(text).not.toContain('MISSED');
  });

  it('prints a row per poll interval of the resuming part', () => {
    const run = results(GOOD);
    run.settings.resumes = 40;
    run.resumes = [
      {
        pollIntervalMs: 50,
        resumes: 40,
        p50Ms: 25.3,
        p95Ms: 58.2,
        readsPerResume: 8.1,
        readsPerWaitedSecond: 24.3,
      },
    ];
    const text = formatBench(run);
    expect(text).toContain('11b. Streams that survive a cut');
    expect(text).toContain('40 resumes per row');
    expect(text).toMatch(/\n +50 +25\.3 +58\.2 +8\.1 +24\.3\n/);
  });
});
