/**
 * The command lines of the Artillery engine. `npm run load -- --scenario FILE --emit artillery DIR [options]`
 * writes the Artillery test of the run those options describe, instead of running it (emit.ts);
 * `npm run load -- --from-artillery OUTPUT --scenario FILE [--url URL] [--json] [--report PAGE]` reports
 * a run of that test from Artillery's JSON output (results.ts).
 */
import { endpoint, quote, sharedOptions, UsageError, type ReportFile } from '../option-values.ts';
import { scenarioCommand, type ScenarioValues } from '../scenario/command.ts';
import { readScenario } from '../scenario/parse.ts';
import type { Scenario, ScenarioOptions } from '../scenario/types.ts';

/** The command line's values the Artillery commands read. */
export interface ArtilleryValues extends ScenarioValues {
  scenario?: string | undefined;
  emit?: string | undefined;
  'from-artillery'?: string | undefined;
  /** The folder after `--emit artillery`. */
  folder?: string | undefined;
}

/** What an Artillery command line asked for. */
export type ArtilleryCommand =
  | { kind: 'emit'; folder: string; options: ScenarioOptions; notices: string[] }
  | {
      kind: 'from-artillery';
      output: string;
      scenario: Scenario;
      url: string;
      json: boolean;
      report?: ReportFile;
      notices: string[];
    };

/** Options a report of Artillery's output has no use for: the run they describe is over. */
const RUN_OPTIONS = [
  'connections',
  'duration',
  'amount',
  'rate',
  'ramp-to',
  'phases',
  'max-in-flight',
  'token',
  'header',
  'timeout',
  'tool',
  'args',
  'era',
  'protocol-version',
  'initialize',
  'stack',
  'region',
] as const;

function emitCommand(values: ArtilleryValues): ArtilleryCommand {
  if (values.emit !== 'artillery')
    throw new UsageError(
      `--emit names the engine to write a test for: artillery (got ${quote(values.emit!)})`,
    );
  if (values.folder === undefined)
    throw new UsageError('--emit artillery needs the folder to write the test to: --emit artillery DIR');
  if (values.scenario === undefined)
    throw new UsageError('--emit writes the test of a scenario: give --scenario FILE');
  if (values.json !== undefined || values.report !== undefined)
    throw new UsageError(
      `--${values.json !== undefined ? 'json' : 'report'} reports a run: --emit writes a test instead of running it`,
    );
  if (values.stack !== undefined || values.region !== undefined)
    throw new UsageError(
      `--${values.stack !== undefined ? 'stack' : 'region'} reads the endpoint's side around a run of this ` +
        'command: --emit writes a test for Artillery to run instead',
    );
  // A token written into the test would travel with it to every worker, and into version control.
  const authorization = (values.header ?? []).some((h) => /^\s*authorization\s*:/i.test(h));
  if (values.token !== undefined || authorization)
    throw new UsageError(
      `--${values.token !== undefined ? 'token' : 'header "Authorization: …"'} is not written into a test: ` +
        'give the scenario an auth, which each worker runs to get its own token',
    );
  const { options, notices } = scenarioCommand(values.scenario, values);
  return { kind: 'emit', folder: values.folder, options, notices };
}

function reportCommand(values: ArtilleryValues): ArtilleryCommand {
  const extra = RUN_OPTIONS.find((option) => values[option] !== undefined);
  if (extra !== undefined)
    throw new UsageError(
      `--${extra} does not go with --from-artillery: the script of the run said how it ran`,
    );
  if (values.scenario === undefined)
    throw new UsageError(
      '--from-artillery reads the metrics of a scenario: give --scenario FILE, the one the test was written from',
    );
  const scenario = readScenario(values.scenario);
  const shared = sharedOptions(values);
  if (shared.report?.format === 'svg')
    throw new UsageError('--report with --from-artillery writes an HTML page: name a .html file');
  const given = values.url !== undefined ? endpoint(values.url, '--url') : scenario.url;
  const url = given ?? 'the script’s target (give --url to show it)';
  return {
    kind: 'from-artillery',
    output: values['from-artillery']!,
    scenario,
    url,
    json: shared.json,
    ...(shared.report ? { report: shared.report } : {}),
    notices: [],
  };
}

/** Reads an Artillery command line (`--emit`, or `--from-artillery`); every failure is a one-line UsageError. */
export function artilleryCommand(values: ArtilleryValues): ArtilleryCommand {
  if (values.emit !== undefined && values['from-artillery'] !== undefined)
    throw new UsageError('--emit writes a test and --from-artillery reports a run of one: give one');
  return values.emit !== undefined ? emitCommand(values) : reportCommand(values);
}
