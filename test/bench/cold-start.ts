/**
 * Part 1: cold start. Each sample is a fresh Node process that imports a bundled function and answers one
 * `tools/call`; variants take turns so drift on the machine spreads evenly over them.
 */
import type { Artifacts } from './bundle.ts';
import type { ColdStartReport, ProbeSpec } from './children/protocol.ts';
import { lambdaEnvironment, runProbe, type ChildRuntime } from './probe.ts';
import { median } from './stats.ts';
import { COLD_START_CALL, requestFor, VARIANTS, type Variant } from './variants.ts';

/** One variant's cold start, in ms (medians over the runs). */
export interface ColdStartResult {
  variant: Variant;
  runs: number;
  /** Process start → first answer: Node bootstrap, module load and init, first call. */
  totalMs: number;
  /** Module load and init plus the first call: the part the function's code decides. */
  codeMs: number;
  /** Module load and init alone. */
  importMs: number;
  /** First call alone. */
  firstCallMs: number;
  samples: number[];
  /** Runs whose answer was not a plain result (should be 0). */
  failures: number;
  detail?: string;
}

/** Measures every variant's cold start `runs` times. */
export async function measureColdStarts(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  runs: number,
  progress: (message: string) => void,
): Promise<ColdStartResult[]> {
  const reports = new Map<string, ColdStartReport[]>(VARIANTS.map((v) => [v.id, []]));
  for (let run = 0; run < runs; run++) {
    progress(`cold start ${run + 1}/${runs}`);
    for (const variant of VARIANTS) {
      const spec: ProbeSpec = { request: requestFor(variant, COLD_START_CALL) };
      const report = await runProbe<ColdStartReport>(
        runtime,
        artifacts.children.coldStart,
        [artifacts.servers[variant.server].file, JSON.stringify(spec)],
        lambdaEnvironment(),
        30_000,
      );
      reports.get(variant.id)!.push(report);
    }
  }
  return VARIANTS.map((variant) => {
    const list = reports.get(variant.id)!;
    const failed = list.filter((r) => r.outcome !== 'ok');
    return {
      variant,
      runs: list.length,
      totalMs: median(list.map((r) => r.answered)),
      codeMs: median(list.map((r) => r.answered - r.started)),
      importMs: median(list.map((r) => r.imported - r.started)),
      firstCallMs: median(list.map((r) => r.answered - r.imported)),
      samples: list.map((r) => Math.round(r.answered * 10) / 10),
      failures: failed.length,
      ...(failed[0]?.detail ? { detail: failed[0].detail } : {}),
    };
  });
}
