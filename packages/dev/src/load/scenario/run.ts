/**
 * A scenario run: the preflight, then flow runs in the model the options name. Closed: `connections` clients, each
 * starting its next flow run when its last one ended, until `durationS` has passed or `amount` runs started. Open:
 * flow runs started on the schedule of `open` (schedule.ts) whatever the server does, each timed from its intended
 * start, at most `maxInFlight` at once (a run due beyond that is not started, and counted). Flows are picked in
 * proportion to their weights, so a run's mix is exact (loop.ts).
 */
import { agentFor } from '../exchange.ts';
import { arrive } from '../open-run.ts';
import { Schedule } from '../schedule.ts';
import { runFlow, type RunContext } from './flows.ts';
import { ClosedLoop, FlowPicker } from './loop.ts';
import { scenarioPreflight } from './preflight.ts';
import { ScenarioRecording } from './recording.ts';
import { summarizeScenario, type ScenarioReport } from './report.ts';
import type { ScenarioOptions } from './types.ts';

/** The closed loop: `connections` clients, each running flows one after another. */
async function closedLoop(options: ScenarioOptions, context: RunContext, picker: FlowPicker): Promise<void> {
  const loop = new ClosedLoop(options, context, picker);
  await Promise.all(Array.from({ length: options.connections }, () => loop.client()));
}

/**
 * Preflight, then the load: the whole `npm run load -- --scenario FILE`. `signal` stops it (Ctrl-C): no flow run
 * starts after it, and those running end after their current step.
 */
export async function runScenario(
  options: ScenarioOptions,
  signal?: AbortSignal,
  recording = new ScenarioRecording(options.scenario),
): Promise<ScenarioReport> {
  const url = new URL(options.url);
  // One socket per flow run at once: a flow run sends its requests one after another.
  const agent = agentFor(url, options.open ? options.open.maxInFlight : options.connections);
  try {
    const target = await scenarioPreflight(options, agent);
    const { flows } = options.scenario;
    const context: RunContext = {
      target,
      flows,
      recording,
      turns: new Map(),
      ...(signal ? { signal } : {}),
    };
    const picker = new FlowPicker(flows.map((flow) => flow.weight));
    recording.start();
    if (!options.open) {
      await closedLoop(options, context, picker);
      return summarizeScenario(recording, options);
    }
    const schedule = new Schedule(options.open.phases, options.amount);
    // A flow run is started at each intended start of the schedule, whatever the server does.
    const start = (index: number, dueMs: number) => runFlow(context, picker.next(), index, dueMs);
    const arrivals = await arrive(schedule, options.open.maxInFlight, () => recording.now(), start, signal);
    return summarizeScenario(recording, options, { plan: options.open, schedule, arrivals });
  } finally {
    agent.destroy();
  }
}
