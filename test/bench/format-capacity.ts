/** The capacity rows of the bench report: stored outputs and reading them back, cost, memory over a long run. */
import {
  COLD_START_SHARE,
  costTable,
  PRICE_PER_GB_SECOND_USD,
  PRICE_PER_MILLION_REQUESTS_USD,
} from './cost.ts';
import type { BenchResults } from './results.ts';
import { mb, ms, n, pct, table, variantLabel } from './table.ts';
import { storeOnlyMbps } from './targets-capacity.ts';
import { VARIANTS } from './variants.ts';

/** 4. The offload round trip: a large output stored and read back. */
export function offloadLines(results: BenchResults): string[] {
  const out: string[] = [];
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
  return out;
}

/** Cost per million calls, from the measured times and memory. */
export function costLines(results: BenchResults): string[] {
  const out: string[] = [];
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
  return out;
}

/** 6. Memory over a long run of calls. */
export function soakLines(results: BenchResults): string[] {
  if (!results.soak) return [];
  const s = results.settings;
  const out: string[] = [];
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
  return out;
}

/** 7. read_output over a large stored output, with the memory of both functions. */
export function readOutputLines(results: BenchResults): string[] {
  if (!results.readOutput) return [];
  const out: string[] = [];
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
  return out;
}
