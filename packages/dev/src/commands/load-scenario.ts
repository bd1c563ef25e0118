/**
 * `npm run load -- --scenario FILE`: the scenario run of the load command (load.ts): the line before it starts,
 * the run, its report (text or JSON on stdout, and the HTML page --report names), and its exit status.
 */
import { writeFileSync } from 'node:fs';
import { PreflightError } from '../load/preflight.ts';
import { ScenarioRecording } from '../load/scenario/recording.ts';
import { renderScenarioHtml } from '../load/scenario/report-html.ts';
import { formatScenarioReport } from '../load/scenario/report-text.ts';
import { runScenario } from '../load/scenario/run.ts';
import type { ScenarioOptions } from '../load/scenario/types.ts';
import { describePhases } from '../load/schedule.ts';
import { offeredLoad, stackAfterRun, stackPreflight } from './load-stack.ts';

/** A preflight's failure: one line on stderr, or the JSON report of a run that did not start. */
export function reportPreflightFailure(error: PreflightError, json: boolean): void {
  if (json) console.log(JSON.stringify({ passed: false, preflightError: error.message }, null, 2));
  else console.error(`preflight failed: ${error.message}`);
}

/** The load the scenario will put on the endpoint, in words. */
function plannedLoad(options: ScenarioOptions): string {
  const count = options.scenario.flows.length;
  const flows = `${count} flow${count === 1 ? '' : 's'} of ${options.scenario.name}`;
  if (options.open) {
    const { phases, maxInFlight } = options.open;
    const amount = options.amount !== undefined ? ` (${options.amount} flow runs)` : '';
    return `${flows}: ${describePhases(phases).replaceAll('req/s', 'flow runs/s')}${amount}, at most ${maxInFlight} at once (open model)`;
  }
  const span = options.amount !== undefined ? `${options.amount} flow runs` : `${options.durationS} s`;
  return `${flows}: ${span} on ${options.connections} connections (closed model)`;
}

/** Runs a scenario and reports it; answers the exit status. */
export async function runScenarioCommand(options: ScenarioOptions, signal: AbortSignal): Promise<number> {
  if (!options.json) console.error(`preflight, then ${plannedLoad(options)} against ${options.url}…`);
  const recording = new ScenarioRecording(options.scenario);
  let report;
  try {
    // The steps' durations are not known before the run: the flows' load is judged by its model alone.
    const side = options.stack
      ? await stackPreflight(options.stack, options.url, offeredLoad(options, 'flow runs'))
      : undefined;
    report = await runScenario(options, signal, recording);
    // Each step that got its MCP result had at least one invocation: what CloudWatch must have counted.
    const answered = report.steps.outcomes.ok + report.steps.outcomes['tool-error'];
    if (side) report.stack = await stackAfterRun(side, recording.all.startedAt, answered);
  } catch (error) {
    if (!(error instanceof PreflightError)) throw error;
    reportPreflightFailure(error, options.json);
    return 1;
  }
  console.log(options.json ? JSON.stringify(report, null, 2) : formatScenarioReport(report));
  if (options.report) {
    writeFileSync(options.report.path, renderScenarioHtml({ options, report, recording }));
    console.error(`report written to ${options.report.path}`);
  }
  return report.passed ? 0 : 1;
}
