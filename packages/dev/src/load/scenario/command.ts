/**
 * The command line of a scenario run, `npm run load -- --scenario FILE`: the file says what each flow sends (so the
 * single-tool options are refused beside it) and may say the endpoint and the model; --url and the model options
 * replace what it says, and the rest (--token, --header, --timeout, --json, --report) work as for one tool.
 */
import { endpoint, sharedOptions, UsageError, type SharedValues } from '../option-values.ts';
import { loadModel, type ModelValues } from '../options-model.ts';
import { readScenario } from './parse.ts';
import type { ScenarioOptions } from './types.ts';

/** The command line's values a scenario run reads. */
export interface ScenarioValues extends ModelValues, SharedValues {
  url?: string | undefined;
  tool?: string | undefined;
  args?: string | undefined;
  era?: string | undefined;
  'protocol-version'?: string | undefined;
  initialize?: boolean | undefined;
}

/** Options that say what a single-tool run sends, and where a scenario says it instead. */
const SCENARIO_SAYS = {
  tool: 'each step names its tool',
  args: 'each step gives its arguments',
  era: 'the scenario (and each flow) gives its era',
  'protocol-version': 'each flow claims its era’s revision',
  initialize: 'a handshake-era flow run starts with initialize',
} as const;

const MODEL_OPTIONS = [
  'connections',
  'duration',
  'amount',
  'rate',
  'ramp-to',
  'phases',
  'max-in-flight',
] as const;

/** Reads a scenario run's command line; every failure is a one-line UsageError. */
export function scenarioCommand(
  file: string,
  values: ScenarioValues,
): { kind: 'scenario'; options: ScenarioOptions; notices: string[] } {
  for (const [option, why] of Object.entries(SCENARIO_SAYS)) {
    if (values[option as keyof typeof SCENARIO_SAYS] !== undefined)
      throw new UsageError(`--${option} does not go with --scenario: ${why}`);
  }
  const shared = sharedOptions(values);
  if (shared.report?.format === 'svg')
    throw new UsageError('--report with --scenario writes an HTML page: name a .html file');
  const scenario = readScenario(file);
  if (shared.token !== undefined && scenario.auth !== undefined)
    throw new UsageError(`--token and the scenario's auth both give the bearer token: give one`);
  const url = values.url ?? scenario.url;
  if (url === undefined) throw new UsageError('--url is required (the scenario names no url)');
  // The command line's model replaces the file's whole: a mix of the two could make a model neither meant.
  const fromCommandLine = MODEL_OPTIONS.some((option) => values[option] !== undefined);
  const { notices, ...model } =
    fromCommandLine || scenario.load === undefined ? loadModel(values) : { ...scenario.load, notices: [] };
  return {
    kind: 'scenario',
    notices,
    options: {
      url: endpoint(url, values.url !== undefined ? '--url' : `the scenario's url`),
      scenario,
      ...model,
      ...shared,
    },
  };
}
