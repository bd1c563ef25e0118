/**
 * Pure policy of the conformance run: reading a baseline file and judging scenario results against it, with the
 * suites' own rule (a scenario with any FAILURE or WARNING check has failed). The suites apply the baseline to
 * the scenarios they score; this applies it to every scenario that ran, so unscored ones cannot regress unseen.
 * Some scenarios pass on INFO alone when a feature is missing (server-sse-polling against a server that answers in
 * JSON): their checks that prove the feature can be required to be SUCCESS, so losing it fails the run.
 */

/** One check of a scenario, as the suites write it to `checks.json`. */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED' | string;
  errorMessage?: string;
}

/** The checks one scenario produced. */
export interface ScenarioResult {
  scenario: string;
  checks: Check[];
}

/** How a run measured against its baseline. */
export interface Verdict {
  passed: string[];
  /** Failed and listed in the baseline. */
  expected: string[];
  /** Failed and not listed: a regression. */
  unexpected: string[];
  /** Listed but passed, or listed but never ran: the baseline must be updated. */
  stale: string[];
  ok: boolean;
}

const SCENARIO = /^[a-z0-9][a-z0-9/._-]*$/;

/**
 * Reads the scenario names of a baseline file: a YAML mapping with one `server:` list of plain scenario names,
 * each line optionally followed by a comment. Anything else is refused, so a typo cannot silently widen it.
 */
export function parseBaseline(text: string): string[] {
  const names: string[] = [];
  let inServer = false;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw
      .replace(/\s+#.*$/, '')
      .replace(/^#.*$/, '')
      .trimEnd();
    if (line.trim() === '') continue;
    if (line === 'server:') {
      inServer = true;
      continue;
    }
    // A baseline with no expected failure at all.
    if (line === 'server: []' && names.length === 0 && !inServer) continue;
    const item = /^\s+-\s+(\S+)$/.exec(line);
    if (!inServer || !item || !SCENARIO.test(item[1]!)) {
      throw new Error(
        `baseline line ${index + 1}: expected "  - scenario-name" under "server:", got ${JSON.stringify(raw)}`,
      );
    }
    if (names.includes(item[1]!)) throw new Error(`baseline line ${index + 1}: ${item[1]} is listed twice`);
    names.push(item[1]!);
  }
  return names;
}

/** Check ids, per scenario, that must each be present and SUCCESS for the scenario to pass. */
export type RequiredChecks = Readonly<Record<string, readonly string[]>>;

/** The required checks of a scenario that are missing or not SUCCESS. */
export function missingChecks(result: ScenarioResult, required: RequiredChecks = {}): string[] {
  return (required[result.scenario] ?? []).filter(
    (id) => !result.checks.some((c) => c.id === id && c.status === 'SUCCESS'),
  );
}

/** Whether a scenario failed: by the suites' rule, or for a required check that is not SUCCESS. */
function failed(result: ScenarioResult, required: RequiredChecks = {}): boolean {
  return (
    result.checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING') ||
    missingChecks(result, required).length > 0
  );
}

/** Judges every scenario that ran against the baseline (and the checks it requires). */
export function judge(
  results: readonly ScenarioResult[],
  baseline: readonly string[],
  required: RequiredChecks = {},
): Verdict {
  const listed = new Set(baseline);
  const ran = new Set(results.map((r) => r.scenario));
  const verdict: Verdict = { passed: [], expected: [], unexpected: [], stale: [], ok: false };
  for (const result of results) {
    const bad = failed(result, required);
    if (bad) (listed.has(result.scenario) ? verdict.expected : verdict.unexpected).push(result.scenario);
    else if (listed.has(result.scenario)) verdict.stale.push(result.scenario);
    else verdict.passed.push(result.scenario);
  }
  for (const name of baseline) if (!ran.has(name)) verdict.stale.push(name);
  // A required scenario that did not run at all has not proved anything either.
  for (const name of Object.keys(required))
    if (!ran.has(name) && !listed.has(name)) verdict.unexpected.push(name);
  verdict.ok = verdict.unexpected.length === 0 && verdict.stale.length === 0 && results.length > 0;
  return verdict;
}
