/** Runs the parts of a bench run one after another, so that one part failing ends that part, never the run. */
import type { BenchResults } from './results.ts';

/** One part: it writes its rows into the results. */
export type Part<Run> = (results: BenchResults, run: Run) => Promise<void>;

/**
 * Runs every part not skipped, in order. A part that fails (a child process gone, a wrong answer) ends there with
 * its message, said at once and recorded in the results; the other parts run all the same.
 */
export async function runParts<Run extends { progress(message: string): void }>(
  parts: Readonly<Record<string, Part<Run>>>,
  results: BenchResults,
  run: Run,
  skip: ReadonlySet<string>,
): Promise<void> {
  for (const [name, part] of Object.entries(parts)) {
    if (skip.has(name)) continue;
    try {
      await part(results, run);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      run.progress(`part ${name} failed, going on with the others: ${message}`);
      results.failedParts = [...(results.failedParts ?? []), { part: name, message }];
    }
  }
}
