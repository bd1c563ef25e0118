/** Runs the parts of a bench run one after another, so that one part failing ends that part, never the run. */
import type { BenchResults } from './results.ts';

/** One part: it writes its rows into the results. */
export type Part<Run> = (results: BenchResults, run: Run) => Promise<void>;

/**
 * Runs every part not skipped, in order. A part that fails (a child process gone, a wrong answer) ends there with
 * its message, said at once and recorded in the results; the other parts run all the same.
 */
export async function runParts<
  Run extends {
    progress(message: string): void;
    /** Child processes that ended unbidden since the last call, each as a line that names it and how it ended. */
    deaths?(): string[];
  },
>(
  parts: Readonly<Record<string, Part<Run>>>,
  results: BenchResults,
  run: Run,
  skip: ReadonlySet<string>,
): Promise<void> {
  for (const [name, part] of Object.entries(parts)) {
    if (skip.has(name)) continue;
    run.deaths?.();
    try {
      await part(results, run);
    } catch (error) {
      const message = explained(error, run.deaths?.() ?? []);
      run.progress(`part ${name} failed, going on with the others: ${message}`);
      results.failedParts = [...(results.failedParts ?? []), { part: name, message }];
    }
  }
}

/** A part's error message, led by the deaths of its children it does not name already: the likely cause. */
function explained(error: unknown, deaths: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const untold = deaths.filter((death) => !message.includes(death));
  return untold.length ? `${untold.join('; ')}; then ${message}` : message;
}
