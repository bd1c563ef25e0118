/**
 * Part 2: warm throughput in process. Each run is a fresh process that loads a bundled function, warms it up and
 * calls its handler back to back (one invocation at a time, as one Lambda execution environment does).
 */
import type { Artifacts } from './bundle.ts';
import type { ProbeSpec, WarmReport } from './children/protocol.ts';
import { lambdaEnvironment, runProbe, type ChildRuntime } from './probe.ts';
import { median } from './stats.ts';
import { requestFor, THROUGHPUT_CALL, VARIANTS, type Variant } from './variants.ts';

export interface WarmResult {
  variant: Variant;
  /** Median handler calls per second over the runs. */
  callsPerSecond: number;
  /** Median time of one call in microseconds. */
  microsPerCall: number;
  samples: number[];
  failures: number;
  detail?: string;
}

/** Measures every variant's warm throughput `runs` times for `durationMs` each. */
export async function measureWarm(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  runs: number,
  durationMs: number,
  progress: (message: string) => void,
): Promise<WarmResult[]> {
  const reports = new Map<string, WarmReport[]>(VARIANTS.map((v) => [v.id, []]));
  for (let run = 0; run < runs; run++) {
    progress(`warm throughput ${run + 1}/${runs}`);
    for (const variant of VARIANTS) {
      const spec: ProbeSpec = { request: requestFor(variant, THROUGHPUT_CALL), warmupCalls: 500, durationMs };
      const report = await runProbe<WarmReport>(
        runtime,
        artifacts.children.warm,
        [artifacts.servers[variant.server].file, JSON.stringify(spec)],
        lambdaEnvironment(),
        durationMs + 60_000,
      );
      reports.get(variant.id)!.push(report);
    }
  }
  return VARIANTS.map((variant) => {
    const list = reports.get(variant.id)!;
    const rates = list.map((r) => (r.calls / r.elapsedMs) * 1000);
    const rate = median(rates);
    const failed = list.find((r) => r.failures > 0);
    return {
      variant,
      callsPerSecond: Math.round(rate),
      microsPerCall: Math.round((1e6 / rate) * 10) / 10,
      samples: rates.map(Math.round),
      failures: list.reduce((sum, r) => sum + r.failures, 0),
      ...(failed?.detail ? { detail: failed.detail } : {}),
    };
  });
}
