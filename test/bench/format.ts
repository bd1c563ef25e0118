/** Prints a benchmark run as plain-text tables with ratios (what `npm run bench` shows and BENCHMARKS.md quotes). */
import type { BundleInfo } from './bundle.ts';
import { SERVERS } from './bundle.ts';
import {
  COLD_START_SHARE,
  costTable,
  PRICE_PER_GB_SECOND_USD,
  PRICE_PER_MILLION_REQUESTS_USD,
} from './cost.ts';
import { ASSUMED_WAIT_S } from './cost.ts';
import type { ViewsResult } from './views.ts';
import type { BenchResults } from './results.ts';
import { storeOnlyMbps } from './targets.ts';
import { VARIANTS } from './variants.ts';
import type { Variant } from './variants.ts';

/** Lays out rows under a header; columns after the first are right-aligned unless marked with a leading '<'. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const left = header.map((h, i) => i === 0 || h.startsWith('<'));
  const head = header.map((h) => h.replace(/^</, ''));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (left[i] ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
    .map((l) => `  ${l}`)
    .join('\n');
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const pct = (share: number) => `${Math.round(share * 100)}%`;
const ms = (value: number) => value.toFixed(value < 10 ? 1 : 0);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const x = (ratio: number) => `${ratio.toFixed(1)}x`;

const ERA_VERSION = { stateless: '2026-07-28', handshake: '2025-11-25' } as const;

/** "ours, 2026-07-28" / "SDK 2.x createMcpHandler, 2025-11-25". */
export function variantLabel(variant: Variant): string {
  return `${SERVERS[variant.server].label}, ${ERA_VERSION[variant.era]}`;
}

function partsSummary(bundle: Omit<BundleInfo, 'file'>, count: number): string {
  const top = bundle.parts.slice(0, count).map((p) => `${p.name} ${kb(p.bytes)}`);
  const rest = bundle.parts.slice(count).reduce((sum, p) => sum + p.bytes, 0);
  return [...top, ...(rest > 0 ? [`other ${kb(rest)}`] : [])].join(' · ');
}

/** Part 9: the bytes a model is handed, per framework. */
function modelBytesSection(r: NonNullable<BenchResults['modelBytes']>): string[] {
  const frameworks = Object.keys(r.page) as (keyof typeof r.page)[];
  return [
    '9. What the model is handed, in bytes: tool definitions (sent with every model call), the notice of a stored ' +
      `report, and a default read_output page (its envelope: all but the ${n(r.pageTextBytes)} bytes of page text)`,
    table(
      ['<', 'all tools', 'read_output'],
      [
        ['tools/list', n(r.toolsList.allBytes), n(r.toolsList.readOutputBytes)],
        ['as function declarations', n(r.declarations.allBytes), n(r.declarations.readOutputBytes)],
      ],
    ),
    table(
      ['framework', 'offload notice', 'read_output page', 'page envelope'],
      frameworks.map((f) => [f, n(r.notice[f]), n(r.page[f]), n(r.page[f] - r.pageTextBytes)]),
    ),
  ];
}

/** The whole report. */
export function formatBench(results: BenchResults): string {
  const m = results.machine;
  const s = results.settings;
  const out: string[] = [
    `npm run bench — ${results.date}`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}`,
    `functions on Node ${m.functionNode} (${s.execArgv.join(' ') || 'no flags'}), load generator on Node ${m.driverNode}`,
    `load average (1 min): ${m.loadStart} at start, ${m.loadEnd ?? '?'} at end; ${results.durationS.toFixed(0)} s in all`,
    '',
  ];

  out.push(
    'Bundles (esbuild with the stack options: minified ESM split into chunks, @aws-sdk/* external); KB = 1,024 bytes',
  );
  out.push(
    table(
      [
        'function',
        'load KB',
        'all KB',
        'lazy chunks',
        'gzip KB',
        '<what loads at cold start (KB in the minified output)',
      ],
      results.bundles.map((b) => [
        b.label,
        kb(b.bytes),
        kb(b.totalBytes),
        String(b.lazyChunks),
        kb(b.gzipBytes),
        partsSummary(b, 4),
      ]),
    ),
  );
  out.push(
    '   (load KB = index.mjs and the chunks it imports statically, what a cold start reads; all KB = every chunk deployed; gzip of all)',
  );
  out.push('');

  if (results.coldStart) {
    const byId = new Map(results.coldStart.map((r) => [r.variant.id, r]));
    out.push(
      `1. Cold start: fresh Node process → first tools/call (safe_divide) answered; median of ${s.coldStartRuns} processes`,
    );
    out.push(
      table(
        [
          'server, revision',
          'process→answer ms',
          'load+init ms',
          'first call ms',
          'ours is',
          'ours is (code only)',
        ],
        results.coldStart.map((r) => {
          const ours = byId.get(`ours-${r.variant.era}`)!;
          const isOurs = r.variant.server === 'ours';
          return [
            variantLabel(r.variant),
            ms(r.totalMs),
            ms(r.importMs),
            ms(r.firstCallMs),
            isOurs ? '' : `${x(r.totalMs / ours.totalMs)} faster`,
            isOurs ? '' : `${x(r.codeMs / ours.codeMs)} faster`,
          ];
        }),
      ),
    );
    out.push(
      "   (code only = load+init + first call, without Node's own start-up, which is the same for every server)",
    );
    out.push('');
  }

  if (results.warm) {
    const byId = new Map(results.warm.map((r) => [r.variant.id, r]));
    out.push(
      `2. Warm in-process: Lambda handler calls/s, tools/call ping, one call at a time; median of ${s.warmRuns} × ${s.warmDurationMs / 1000} s`,
    );
    out.push(
      table(
        ['server, revision', 'calls/s', 'µs/call', 'ours is'],
        results.warm.map((r) => {
          const ours = byId.get(`ours-${r.variant.era}`)!;
          return [
            variantLabel(r.variant),
            n(r.callsPerSecond),
            r.microsPerCall.toFixed(0),
            r.variant.server === 'ours' ? '' : `${x(ours.callsPerSecond / r.callsPerSecond)} faster`,
          ];
        }),
      ),
    );
    out.push('');
  }

  if (results.http) {
    const bare = results.http.find((r) => r.id === 'bare');
    out.push(
      `3. HTTP through the local server (npm start's API Gateway emulation), load command, tools/call ping, ` +
        `${s.httpConnections} connections, ${s.httpDurationS} s; median of ${s.httpRounds} rounds`,
    );
    out.push(
      table(
        [
          'server, revision',
          'req/s',
          'of bare',
          'p50 ms',
          'p90 ms',
          'p99 ms',
          'max ms',
          'failed',
          'isError',
          'peak RSS MB',
        ],
        results.http.map((r) => [
          r.variant
            ? variantLabel(r.variant)
            : r.id === 'bare'
              ? 'bare node:http, fixed response (ceiling)'
              : 'local server emulation, fixed response',
          n(r.report.requestsPerSecond),
          bare ? `${Math.round((r.report.requestsPerSecond / bare.report.requestsPerSecond) * 100)}%` : '',
          String(r.report.latencyMs.p50),
          String(r.report.latencyMs.p90),
          String(r.report.latencyMs.p99),
          String(r.report.latencyMs.max),
          n(r.failures),
          n(r.report.outcomes['tool-error']),
          mb(r.peakRssBytes),
        ]),
      ),
    );
    out.push(
      '   (failed = transport errors + non-2xx + JSON-RPC errors + unreadable answers, over all rounds)',
    );
    out.push('');
  }

  out.push(
    '4. Offload round trip: generate_report output (streamed by the tool) stored in the local S3 server as ' +
      'resource links, every part read back with resources/read over HTTP and its SHA-256 checked; a fresh ' +
      'function process per size; median of 3 (1 for 100 MB)',
  );
  if (!results.offload) out.push('  not run');
  else if ('pending' in results.offload) out.push(`  pending: ${results.offload.pending}`);
  else {
    out.push(
      table(
        [
          'output',
          'tools/call ms',
          'tool alone ms',
          'read back ms',
          'parts',
          'total ms',
          'MB/s with tool',
          'store-only MB/s',
          'round trip MB/s',
          'bytes match',
          'peak RSS MB',
        ],
        results.offload.map((r) => [
          `${(r.outputBytes / 1e6).toFixed(1)} MB`,
          ms(r.callMs),
          ms(r.toolMs),
          ms(r.readMs),
          String(r.parts),
          ms(r.callMs + r.readMs),
          (r.outputBytes / 1e6 / (r.callMs / 1000)).toFixed(1),
          storeOnlyMbps(r)?.toFixed(1) ?? '-',
          (r.outputBytes / 1e6 / ((r.callMs + r.readMs) / 1000)).toFixed(1),
          r.verified ? 'yes' : 'NO',
          mb(r.peakRssBytes),
        ]),
      ),
    );
    out.push(
      '   (MB = 1,000,000 bytes here; tool alone = generate_report run once in the benchmark process, for scale; ' +
        'MB/s with tool = output / tools/call time; store-only MB/s = output / (tools/call − tool alone), the tool ' +
        'streams into the store, so this is an estimate of the store alone; peak RSS = the function process, ' +
        'Linux VmHWM)',
    );
  }
  out.push('');

  const costs = costTable(results, (id) => variantLabel(VARIANTS.find((v) => v.id === id)!));
  if (costs.length) {
    out.push(
      `Cost: Lambda GB-seconds per million calls, ${pct(COLD_START_SHARE)} of them cold, each server at the ` +
        'smallest memory setting above its peak RSS under HTTP load (arm64 prices, us-east-1)',
    );
    out.push(
      table(
        [
          'server, revision',
          'memory MB',
          'warm ms billed',
          'cold ms billed',
          'GB-s / 1M calls',
          'USD / 1M calls',
          'ours is',
        ],
        costs.map((c) => [
          c.label,
          String(c.memoryMb),
          String(c.warmBilledMs),
          String(c.coldBilledMs),
          c.gbSeconds.toFixed(1),
          c.usd.toFixed(2),
          c.ratio === undefined ? '' : `${c.ratio.toFixed(1)}x cheaper`,
        ]),
      ),
    );
    out.push(
      `   (price constants: ${PRICE_PER_GB_SECOND_USD} USD per GB-second, ${PRICE_PER_MILLION_REQUESTS_USD} USD per ` +
        'million requests; billed ms = the measured warm µs/call and cold-start code ms, each rounded up to 1 ms ' +
        'as Lambda bills; memory = peak RSS rounded up to the next 64 MB, at least 128 MB; measured on this ' +
        "machine's CPU, not Lambda's, so the ratios matter more than the sums)",
    );
    out.push('');
  }

  if (results.stream) {
    out.push(
      `5. First streamed event: a tool that reports progress at once, works ${results.stream[0]?.workMs ?? '?'} ms, ` +
        'reports again and answers, behind the local server in each mode; one call at a time, medians of ' +
        `${results.stream[0]?.calls ?? '?'} calls (ms from sending the request)`,
    );
    out.push(
      table(
        ['mode', 'headers', 'first event', 'response', 'first event after emit', 'p95'],
        results.stream.map((r) => [
          r.api === 'http' ? 'http (buffered adapter)' : 'rest-streaming (streaming adapter)',
          ms(r.headersMs),
          ms(r.firstEventMs),
          ms(r.responseMs),
          ms(r.deliveryMs),
          ms(r.deliveryP95Ms),
        ]),
      ),
    );
    out.push(
      '   (first event after emit = its arrival at the client minus when the tool emitted it, on one clock: server ' +
        'and client share the benchmark process)',
    );
    out.push('');
  }

  if (results.soak) {
    const k = results.soak;
    out.push(
      `6. Soak: ${n(k.calls)} tools/call ping through the local server (ours, 2025-11-25), ${s.httpConnections} ` +
        'connections, after an untimed warm-up; memory after a full GC',
    );
    out.push(
      table(
        ['after calls', 'RSS MB', 'heap used MB'],
        [
          ...k.checkpoints.map((c) => [
            c.calls === 0 ? 'start (after warm-up)' : n(c.calls),
            mb(c.memory.rssBytes),
            mb(c.memory.heapUsedBytes),
          ]),
          ['peak RSS', mb(k.peakRssBytes), ''],
        ],
      ),
    );
    out.push(
      `   ${n(k.calls)} calls in ${k.durationS} s (${n(k.requestsPerSecond)} req/s), worst p99 ${k.p99Ms} ms, ` +
        `${n(k.failures)} failed`,
    );
    out.push('');
  }

  if (results.readOutput) {
    const r = results.readOutput;
    out.push(
      `7. read_output over a ${(r.outputBytes / 1e6).toFixed(0)} MB stored output (${r.parts} parts), through the ` +
        'local stack: MCP function and companion function bundles, each in its own process; memory after a full GC',
    );
    const memory = (m: (typeof r.steps)[number]['mcp']) => [
      mb(m.rssGrowthBytes),
      mb(m.peakGrowthBytes),
      mb(m.peakRssBytes),
    ];
    out.push(
      table(
        [
          'step',
          'calls',
          'ms',
          'right',
          'MCP RSS +MB',
          'MCP peak +MB',
          'MCP peak MB',
          'companion RSS +MB',
          'companion peak +MB',
          'companion peak MB',
        ],
        r.steps.map((t) => [
          t.label,
          String(t.calls),
          ms(t.ms),
          t.verified ? 'yes' : 'NO',
          ...memory(t.mcp),
          ...memory(t.companion),
        ]),
      ),
    );
    out.push('   (+MB: growth over the RSS before the step; peak: the highest RSS during it, Linux VmHWM)');
    out.push('');
  }

  if (results.tasks) {
    out.push(
      `8. Tasks: one tasks/get poll through our bundled function behind the local server, task records in a local ` +
        `DynamoDB (dynalite on loopback), ${n(s.taskPolls)} sequential requests per row after a warm-up`,
    );
    out.push(
      table(
        ['request', 'p50 ms', 'p99 ms'],
        results.tasks.map((r) => [r.label, String(r.p50Ms), String(r.p99Ms)]),
      ),
    );
    out.push('');
  }

  if (results.modelBytes) out.push(...modelBytesSection(results.modelBytes), '');
  if (results.existence) {
    const e = results.existence;
    out.push(
      `10. Refused reads by kind of id, against the local S3 stand-in: ${n(e.tries)} reads of each, interleaved in a ` +
        'shuffled order in one process (another caller and a never-issued id must not be told apart)',
    );
    out.push(
      table(
        ['path', '<id', 'median ms', 'p90 ms', '<answer'],
        e.rows.map((r) => [r.path, r.kind, r.medianMs.toFixed(3), r.p90Ms.toFixed(3), r.answer]),
      ),
    );
    out.push('');
  }

  if (results.asks) {
    out.push(
      `11. Asking (streaming API): one mid-call question, the call waiting on one instance and the answer POSTed to ` +
        `another, sharing a local DynamoDB; answer POST sent -> the call's result received, ` +
        `${n(s.asks ?? 0)} asks per row; reads counted while a call waits 3 s; cost of 1,000 asks waiting ` +
        `${ASSUMED_WAIT_S} s each (DynamoDB on-demand: 3 writes per ask plus the reads; Lambda: 1 GB waiting)`,
    );
    out.push(
      table(
        [
          'poll interval ms',
          'p50 ms',
          'p95 ms',
          'reads per waited s',
          'DynamoDB $/1k asks',
          'Lambda $/1k asks',
        ],
        results.asks.map((r) => [
          String(r.pollIntervalMs),
          String(r.p50Ms),
          String(r.p95Ms),
          String(r.readsPerWaitedSecond),
          r.dynamoUsdPer1000Asks.toFixed(4),
          r.lambdaUsdPer1000Asks.toFixed(3),
        ]),
      ),
    );
    out.push('');
  }

  if (results.views) out.push(...viewsSection(results.views));

  out.push('Targets (issues 5, 10, 14, 21, 22 and 23)');
  out.push(
    table(
      ['target', '<goal', '<measured', '<result'],
      results.targets.map((t) => [
        t.name,
        t.goal,
        t.measured,
        t.information ? 'information' : t.met === undefined ? 'not run' : t.met ? 'met' : 'MISSED',
      ]),
    ),
  );
  for (const t of results.targets) if (t.note) out.push(`   ${t.name}: ${t.note}`);
  return out.join('\n');
}

/** Part 9: the views' sizes beside the SDK App class, their reads, and the time to their first painted page. */
function viewsSection(v: ViewsResult): string[] {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const out = [
    '12. Views (MCP Apps): each built document, and the smallest view on the SDK App class for comparison',
    table(
      ['view', 'KB', 'gzip KB'],
      [...v.sizes, v.appClass].map((s) => [s.name, kb(s.bytes), kb(s.gzipBytes)]),
    ),
    '   resources/read of each view from the bundled MCP function: the first read (it loads the view) and warm reads',
    table(
      ['view', 'first ms', 'warm p50 ms', 'warm p99 ms'],
      v.reads.map((r) => [r.name, r.firstMs.toFixed(1), r.warmP50Ms.toFixed(2), r.warmP99Ms.toFixed(2)]),
    ),
  ];
  if ('skipped' in v.paints) out.push(`   tool result to first painted page: skipped, ${v.paints.skipped}`);
  else
    out.push(
      '   tool result to first painted page in headless Chromium (local view host, bundled functions, local S3)',
      table(
        ['view', 'runs', 'p50 ms', 'max ms'],
        v.paints.map((p) => [p.name, String(p.runs), p.p50Ms.toFixed(0), p.maxMs.toFixed(0)]),
      ),
    );
  out.push('');
  return out;
}
