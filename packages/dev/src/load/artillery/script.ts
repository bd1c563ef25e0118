/**
 * The Artillery test script of a scenario run: the load model as Artillery phases, the processor and the plan
 * file beside it, and one scenario whose only step calls the processor. Artillery counts in whole arrivals per
 * second and whole seconds, and has no closed model: where the mapping cannot say exactly what `npm run load` would
 * run, it says what it does instead, in a note for the terminal and a comment in the script.
 */
import { describePhases, type Phase } from '../schedule.ts';
import type { ScenarioOptions } from '../scenario/types.ts';
import { PLAN_FILE } from './plan.ts';

/** The processor's file name beside the script. */
export const PROCESSOR_FILE = 'processor.mjs';

/** One Artillery phase, as the script writes it. */
type ArtilleryPhase = Record<string, string | number>;

/** The script's phases, and the notes on what differs from `npm run load`. */
interface Mapping {
  phases: ArtilleryPhase[];
  notes: string[];
  /** The processor function each virtual user runs. */
  fn: 'mcpFlowRun' | 'mcpConnection';
}

/** Whole seconds, at least one (Artillery's phases last whole seconds). */
function seconds(durationS: number, notes: string[]): number {
  const whole = Math.max(1, Math.round(durationS));
  if (whole !== durationS)
    notes.push(`a phase of ${durationS} s lasts ${whole} s: Artillery counts whole seconds`);
  return whole;
}

/** One phase of the open model. */
function openPhase(phase: Phase, maxVusers: number, notes: string[]): ArtilleryPhase {
  const name = describePhases([phase]).replaceAll('req/s', 'flow runs/s');
  const duration = seconds(phase.durationS, notes);
  if (phase.rampTo !== undefined && phase.rampTo !== phase.rate) {
    notes.push(
      `${name}: Artillery ramps in whole-second steps from the first rate to the last (both included), so the ` +
        'ramp starts a slightly different number of flow runs than npm run load would',
    );
    return { name, duration, arrivalRate: phase.rate, rampTo: phase.rampTo, maxVusers };
  }
  if (phase.rate === 0) return { name, pause: duration };
  if (Number.isInteger(phase.rate)) return { name, duration, arrivalRate: phase.rate, maxVusers };
  const arrivalCount = Math.round(phase.rate * phase.durationS);
  notes.push(
    `${name}: Artillery's arrivalRate is whole arrivals per second, so the phase starts ${arrivalCount} flow ` +
      `runs spread evenly over ${duration} s (arrivalCount), on one worker thread`,
  );
  return { name, duration, arrivalCount, maxVusers };
}

/** The load model of the options as Artillery phases. */
export function mapModel(options: ScenarioOptions): Mapping {
  const notes: string[] = [];
  if (!options.open) {
    notes.push(
      `the closed model has no Artillery equivalent: the script starts ${options.connections} virtual users ` +
        'within its first second, each one connection running flows one after another until ' +
        (options.amount !== undefined
          ? `the worker has started ${options.amount} flow runs`
          : `${options.durationS} s have passed`) +
        '; on several workers (--count) each worker runs all of them',
    );
    const name = `closed model: ${options.connections} connections`;
    return { phases: [{ name, duration: 1, arrivalCount: options.connections }], notes, fn: 'mcpConnection' };
  }
  const { phases, maxInFlight } = options.open;
  notes.push(
    'on several workers (--count) each worker runs the whole schedule: divide the rates (or the amount) by the ' +
      'worker count',
  );
  if (options.amount !== undefined) {
    // --rate R --amount N: N flow runs, spread evenly at R a second.
    const phase = phases[0]!;
    const name = `${options.amount} flow runs at ${phase.rate} flow runs/s`;
    const duration = seconds(phase.durationS, notes);
    return {
      phases: [{ name, duration, arrivalCount: options.amount, maxVusers: maxInFlight }],
      notes,
      fn: 'mcpFlowRun',
    };
  }
  return { phases: phases.map((phase) => openPhase(phase, maxInFlight, notes)), notes, fn: 'mcpFlowRun' };
}

/** A value as YAML: strings double-quoted as JSON writes them (JSON's strings are YAML's), numbers as they are. */
const yaml = (value: string | number) => (typeof value === 'number' ? String(value) : JSON.stringify(value));

/** The text of the test script. */
export function scriptText(options: ScenarioOptions, mapping: Mapping): string {
  const { scenario } = options;
  const flows = scenario.flows.map((flow) => `${flow.name} (weight ${flow.weight})`).join(', ');
  const phases = mapping.phases.flatMap((phase) =>
    Object.entries(phase).map(([key, value], i) => `${i === 0 ? '    - ' : '      '}${key}: ${yaml(value)}`),
  );
  return [
    `# The load scenario ${JSON.stringify(scenario.name)} on Artillery, written by npm run load -- --emit artillery.`,
    `# Flows: ${flows}.`,
    `# Each virtual user runs them with the code of npm run load -- --scenario (${PROCESSOR_FILE}), reading the`,
    `# checked scenario and the run's settings from ${PLAN_FILE}.`,
    ...mapping.notes.map((note) => `# Note: ${note}.`),
    'config:',
    `  target: ${yaml(options.url)}`,
    '  phases:',
    ...phases,
    `  processor: ${yaml(`./${PROCESSOR_FILE}`)}`,
    '  # Copied to every worker of a distributed run (run-lambda, run-fargate) with the script.',
    '  includeFiles:',
    `    - ${yaml(PLAN_FILE)}`,
    'scenarios:',
    `  - name: ${yaml(mapping.fn === 'mcpConnection' ? 'mcp connection' : 'mcp flow run')}`,
    '    flow:',
    `      - function: ${yaml(mapping.fn)}`,
    '',
  ].join('\n');
}
