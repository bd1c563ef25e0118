/**
 * Part 6, the soak run: many calls through our function behind the local server, its memory read after a full GC
 * between segments, so a leak shows as growth in every segment.
 */
import { fire, type LoadReport } from '@mcp-lambda/dev/load';
import type { Artifacts } from './bundle.ts';
import { failuresOf, loadOptions, prepared, type HttpSettings } from './http.ts';
import { startServeChild, type MemoryStats } from './serve-child.ts';
import type { ChildRuntime } from './probe.ts';

/** Memory after a number of soak calls (after a full GC). */
interface SoakCheckpoint {
  calls: number;
  memory: MemoryStats;
}

/** The soak run: memory after warm-up and after each quarter of the calls, and what the load saw. */
export interface SoakResult {
  calls: number;
  /** After the warm-up (calls 0), then after each segment. */
  checkpoints: SoakCheckpoint[];
  peakRssBytes: number;
  /** Failed requests over all segments. */
  failures: number;
  durationS: number;
  requestsPerSecond: number;
  /** The worst segment's 99th-percentile latency. */
  p99Ms: number;
}

/** Segments of a soak run; memory is read after each. */
const SOAK_SEGMENTS = 4;

/**
 * Sends `calls` requests through our function behind the local server, after an untimed warm-up of a tenth as
 * many, and reads its memory after a full GC at the start and after every quarter: a leak grows in every quarter,
 * while V8 and allocator warm-up settle after the first.
 */
export async function soak(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  calls: number,
  settings: HttpSettings,
  progress: (message: string) => void,
): Promise<SoakResult> {
  const child = await startServeChild(runtime, artifacts, artifacts.servers.ours.file);
  try {
    const request = prepared('handshake');
    progress(`soak: warm-up, ${Math.max(1000, Math.round(calls / 10)).toLocaleString('en-US')} calls`);
    await fire(
      loadOptions(child.url, 'handshake', settings, { amount: Math.max(1000, Math.round(calls / 10)) }),
      request,
    );
    const checkpoints: SoakCheckpoint[] = [{ calls: 0, memory: await child.stats(true) }];
    const reports: LoadReport[] = [];
    let done = 0;
    for (let segment = 1; segment <= SOAK_SEGMENTS; segment++) {
      const amount = Math.round((calls * segment) / SOAK_SEGMENTS) - done;
      progress(
        `soak: calls ${(done + 1).toLocaleString('en-US')}–${(done + amount).toLocaleString('en-US')}`,
      );
      reports.push(await fire(loadOptions(child.url, 'handshake', settings, { amount }), request));
      done += amount;
      checkpoints.push({ calls: done, memory: await child.stats(true) });
    }
    const durationS = reports.reduce((sum, r) => sum + r.durationS, 0);
    const answered = reports.reduce((sum, r) => sum + r.requests, 0);
    return {
      calls,
      checkpoints,
      peakRssBytes: checkpoints.at(-1)!.memory.maxRssBytes,
      failures: reports.reduce((sum, r) => sum + failuresOf(r), 0),
      durationS: Math.round(durationS * 100) / 100,
      requestsPerSecond: Math.round(answered / durationS),
      p99Ms: Math.max(...reports.map((r) => r.latencyMs.p99)),
    };
  } finally {
    await child.stop();
  }
}
