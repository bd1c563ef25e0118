/**
 * The processor of the Artillery test `npm run load -- --emit artillery DIR` writes. Artillery starts the virtual
 * users on its schedule, on one machine or on many workers; each virtual user runs the scenario's flows with the
 * code of `npm run load -- --scenario` itself (flows.ts: the session, every step's requests and checks, the think
 * times), and files each step as custom metrics (metrics.ts) instead of a recording. A worker reads the plan beside
 * the script once, and runs the scenario's preflight once (the token, `tools/list`); every virtual user of the worker
 * then shares its connections, its flow picker and, in the closed model, its loop.
 */
import { dirname, join } from 'node:path';
import { agentFor } from '../exchange.ts';
import type { RunContext } from '../scenario/flows.ts';
import { runFlow } from '../scenario/flows.ts';
import { ClosedLoop, FlowPicker } from '../scenario/loop.ts';
import { scenarioPreflight } from '../scenario/preflight.ts';
import { ArtilleryLog, PREFLIGHT_FAILED, type ArtilleryEvents } from './metrics.ts';
import { PLAN_FILE, readPlan } from './plan.ts';

/** The part of a virtual user's context the processor reads: the script's path and its target. */
export interface ArtilleryContext {
  vars: Record<string, unknown>;
}

/** What a worker's virtual users share. */
interface Worker {
  context: RunContext;
  picker: FlowPicker;
  /** The closed model's loop, when the plan has one. */
  loop?: ClosedLoop;
  /** Flow runs started by this worker, which numbers each (`{{index}}`). */
  started: number;
}

let worker: Promise<Worker> | undefined;

/** Reads the plan, runs the preflight and sets up what the worker's virtual users share. */
async function startWorker(context: ArtilleryContext, events: ArtilleryEvents): Promise<Worker> {
  const script = String(context.vars.$scenarioFile);
  const plan = readPlan(join(dirname(script), PLAN_FILE));
  // `artillery run --target URL` replaces the script's target: the endpoint is the target, whatever the plan says.
  const url = String(context.vars.target);
  const agent = agentFor(new URL(url), plan.maxSockets);
  const target = await scenarioPreflight(
    {
      url,
      scenario: plan.scenario,
      headers: plan.headers,
      timeoutS: plan.timeoutS,
      connections: 1,
      durationS: plan.closed?.durationS ?? 0,
      json: false,
    },
    agent,
  );
  const { flows } = plan.scenario;
  const run: RunContext = { target, flows, recording: new ArtilleryLog(flows, events), turns: new Map() };
  const picker = new FlowPicker(flows.map((flow) => flow.weight));
  return {
    context: run,
    picker,
    ...(plan.closed ? { loop: new ClosedLoop(plan.closed, run, picker) } : {}),
    started: 0,
  };
}

/** The worker's shared state, started by its first virtual user; a failed preflight fails every one. */
async function workerOf(context: ArtilleryContext, events: ArtilleryEvents): Promise<Worker> {
  worker ??= startWorker(context, events);
  try {
    return await worker;
  } catch (error) {
    events.emit('counter', PREFLIGHT_FAILED, 1);
    // Artillery counts a virtual user's error by its message: one line that says why, for every one it failed.
    throw new Error(`preflight failed: ${(error as Error).message}`, { cause: error });
  }
}

/** The open model's virtual user: one flow run, of the flow the worker's picker gives next. */
export async function mcpFlowRun(context: ArtilleryContext, events: ArtilleryEvents): Promise<void> {
  const shared = await workerOf(context, events);
  await runFlow(shared.context, shared.picker.next(), shared.started++);
}

/**
 * The closed model's virtual user: one connection of the worker's loop, running flows one after another until the
 * worker's connections together have started the plan's amount of flow runs, or its duration has passed.
 */
export async function mcpConnection(context: ArtilleryContext, events: ArtilleryEvents): Promise<void> {
  const shared = await workerOf(context, events);
  if (!shared.loop) throw new Error('the plan has no closed model: the script should run mcpFlowRun');
  await shared.loop.client();
}
