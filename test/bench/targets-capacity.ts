/** The capacity targets (issues 10 and 14): large outputs stored and read back, memory over a long run. */
import type { OffloadResult, TargetCheck } from './results.ts';
import type { ReadOutputResult } from './read-output.ts';
import type { SoakResult } from './soak.ts';

/** Issue 14: offload throughput for a 100 MB output, MB (10^6 bytes) per second. */
const OFFLOAD_MBPS = 50;
/** Issue 14: peak RSS of the function storing and serving a 100 MB streamed output. */
const STREAM_RSS_LIMIT_BYTES = 200 * 1024 * 1024;
/**
 * Soak growth that still counts as noise, the larger of a size and a share: RSS over the run's second half (the
 * first settles V8's heap sizing and the allocator), and live heap from start to end (both after a full GC).
 */
const SOAK_NOISE = {
  bytes: 4 * 1024 * 1024,
  share: 0.05,
  heapBytes: 1024 * 1024,
  heapShare: 0.1,
} as const;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** MB/s of the store alone: the output over tools/call time less the tool's own time making it (measured apart). */
export function storeOnlyMbps(r: OffloadResult): number | undefined {
  const ms = r.callMs - r.toolMs;
  return ms > 0 ? r.outputBytes / 1e6 / (ms / 1000) : undefined;
}

const storeOnly = (r: OffloadResult) => {
  const mbps = storeOnlyMbps(r);
  return mbps === undefined ? 'not separable' : `${mbps.toFixed(1)} MB/s`;
};

/** Issue 14: a 100 MB output stored fast enough, and read back identical within the memory limit. */
export function offloadChecks(list: readonly OffloadResult[]): TargetCheck[] {
  const big = list.find((r) => r.outputBytes >= 90_000_000);
  if (!big) return [];
  const endToEnd = big.outputBytes / 1e6 / (big.callMs / 1000);
  // The target is the store's: the tool's own time making the report (measured apart) is not the offloader's.
  const mbps = storeOnlyMbps(big) ?? endToEnd;
  const size = `${(big.outputBytes / 1e6).toFixed(1)} MB`;
  const rssMet = big.verified && big.peakRssBytes < STREAM_RSS_LIMIT_BYTES;
  return [
    {
      name: `offload throughput, ${size}`,
      goal: `≥ ${OFFLOAD_MBPS} MB/s (the store)`,
      measured:
        `store alone ${storeOnly(big)}; with the tool making it ${endToEnd.toFixed(1)} MB/s ` +
        `(tools/call ${(big.callMs / 1000).toFixed(1)} s)`,
      met: mbps >= OFFLOAD_MBPS,
      ...(mbps >= OFFLOAD_MBPS ? {} : { note: `short by ${(OFFLOAD_MBPS - mbps).toFixed(1)} MB/s` }),
    },
    {
      name: `${size} streamed output stored and read back`,
      goal: `identical, peak RSS < ${mb(STREAM_RSS_LIMIT_BYTES)}`,
      measured: `${big.verified ? 'SHA-256 identical' : 'BYTES DIFFER'}, peak RSS ${mb(big.peakRssBytes)}`,
      met: rssMet,
      ...(rssMet ? {} : { note: `over by ${mb(big.peakRssBytes - STREAM_RSS_LIMIT_BYTES)}` }),
    },
  ];
}

/** Issue 14: memory over a long run grows no more than noise. */
export function soakCheck(soak: SoakResult): TargetCheck {
  const first = soak.checkpoints[0]!.memory;
  const half = soak.checkpoints[Math.floor((soak.checkpoints.length - 1) / 2)]!.memory;
  const last = soak.checkpoints.at(-1)!.memory;
  const rssGrowth = last.rssBytes - first.rssBytes;
  const lateGrowth = last.rssBytes - half.rssBytes;
  const heapGrowth = last.heapUsedBytes - first.heapUsedBytes;
  const rssNoise = Math.max(SOAK_NOISE.bytes, first.rssBytes * SOAK_NOISE.share);
  const heapNoise = Math.max(SOAK_NOISE.heapBytes, first.heapUsedBytes * SOAK_NOISE.heapShare);
  const met = lateGrowth <= rssNoise && heapGrowth <= heapNoise;
  const signed = (bytes: number) => `${bytes >= 0 ? '+' : ''}${mb(bytes)}`;
  return {
    name: `soak memory over ${soak.calls.toLocaleString('en-US')} calls`,
    goal: 'no growth beyond noise',
    measured:
      `RSS ${mb(first.rssBytes)} → ${mb(last.rssBytes)} (${signed(rssGrowth)}; second half ${signed(lateGrowth)}), ` +
      `heap ${signed(heapGrowth)}`,
    met,
    ...(met
      ? {}
      : {
          note:
            `noise allows ${mb(rssNoise)} of RSS over the second half and ${mb(heapNoise)} of heap; ` +
            'growth in every quarter points to a leak',
        }),
  };
}

/** Growth of a function process's RSS while it reads one page of a 100 MB output (issue 10). */
const READ_PAGE_RSS_LIMIT_BYTES = 32 * 1024 * 1024;

/** Issue 10: one page of a 100 MB output in bounded memory, and a search over all of it. */
export function readOutputChecks(result: ReadOutputResult): TargetCheck[] {
  const [page, , search] = result.steps;
  const size = `${(result.outputBytes / 1e6).toFixed(0)} MB`;
  const checks: TargetCheck[] = [];
  if (page) {
    const worst = Math.max(page.mcp.peakGrowthBytes, page.companion.peakGrowthBytes);
    const met = worst < READ_PAGE_RSS_LIMIT_BYTES && page.verified;
    checks.push({
      name: `read_output: one page of ${size}, RSS growth`,
      goal: `< ${mb(READ_PAGE_RSS_LIMIT_BYTES)} per process`,
      measured: `peak +${mb(page.mcp.peakGrowthBytes)} MCP function, +${mb(page.companion.peakGrowthBytes)} companion`,
      met,
      ...(met
        ? {}
        : {
            note: `over by ${mb(worst - READ_PAGE_RSS_LIMIT_BYTES)}${page.verified ? '' : '; the page was wrong'}`,
          }),
    });
  }
  if (search) {
    checks.push({
      name: `read_output: search over ${size}`,
      goal: 'completes, bounded memory',
      measured:
        `${search.verified ? 'all 3 matches' : 'WRONG matches'} in ${search.calls} call${search.calls === 1 ? '' : 's'}, ` +
        `${(search.ms / 1000).toFixed(1)} s; companion peak ${mb(search.companion.peakRssBytes)} ` +
        `(+${mb(search.companion.peakGrowthBytes)})`,
      met: search.verified,
    });
  }
  return checks;
}
