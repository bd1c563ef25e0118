/**
 * One flow run: a client of the flow's era (a session opened with `initialize` in the handshake era), then the
 * steps one after another, each filed as it ends, with the think time after it. A step that fails ends the run
 * (the steps after it would build on what it did not get); an `isError` result does not.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { FlowClient, type Target } from './client.ts';
import { goesOn, type FlowLog } from './recording.ts';
import { runStep, type FlowRun, type StepEnd, type Turns } from './steps.ts';
import type { Flow, Think } from './types.ts';

/** What every flow run of a load shares. */
export interface RunContext {
  target: Target;
  flows: readonly Flow[];
  recording: FlowLog;
  turns: Turns;
  /** Ctrl-C: a flow run stops after the step it is in. */
  signal?: AbortSignal;
}

const thinkMs = (think: Think) =>
  think.maxMs > think.minMs ? randomInt(think.minMs, think.maxMs + 1) : think.minMs;

/** Waits `ms`, or less when the load is stopped. */
const pause = (ms: number, signal?: AbortSignal) =>
  sleep(ms, undefined, signal ? { signal } : {}).catch(() => undefined);

/**
 * Runs flow `flow` once as run number `index`. `dueMs` is when the open model meant it to start: its first step's
 * latency, and the run's, are timed from then, so a late start shows.
 */
export async function runFlow(
  context: RunContext,
  flow: number,
  index: number,
  dueMs?: number,
): Promise<void> {
  const { recording, signal } = context;
  const plan = context.flows[flow]!;
  const client = new FlowClient(context.target, plan.era);
  const run: FlowRun = { client, index };
  const startMs = dueMs ?? recording.now();
  let slot = 0;
  /** Files a step that started at `fromMs`, with the requests it sent; answers whether the run goes on. */
  const file = (end: StepEnd, fromMs: number, sentBefore: number): boolean => {
    recording.step(flow, slot++, end, fromMs, client.requests - sentBefore);
    return goesOn(end.kind);
  };
  let failure: StepEnd | undefined;
  if (plan.era === 'handshake') {
    const opened = await client.open();
    const end: StepEnd = 'failure' in opened ? opened.failure : { kind: 'ok' };
    if (!file(end, startMs, 0)) failure = end;
  }
  for (const step of plan.steps) {
    if (failure || signal?.aborted) break;
    const fromMs = slot === 0 ? startMs : recording.now();
    const sentBefore = client.requests;
    const end = await runStep(step, run, context.turns);
    if (!file(end, fromMs, sentBefore)) failure = end;
    else if (step.think) await pause(thinkMs(step.think), signal);
  }
  recording.run(flow, failure?.kind ?? 'ok', startMs, failure?.detail);
}
