/**
 * `npm run load -- --stack NAME`: the endpoint's side around the run (load/stack/). Before the load, the stack's
 * limits judged against the load offered, its warnings on stderr at once (a run can still be stopped); after it,
 * the Lambda side from CloudWatch, with a line on stderr while CloudWatch catches up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpenPlan } from '../load/schedule.ts';
import type { Offered } from '../load/stack/limits.ts';
import { StackSide, type StackOption, type StackReport } from '../load/stack/side.ts';

/** The load a run offers: the open model's peak rate, or the closed model's connections. */
export function offeredLoad(model: { open?: OpenPlan; connections: number }, unit: Offered['unit']): Offered {
  if (!model.open) return { model: 'closed', connections: model.connections, unit };
  const peakRate = Math.max(...model.open.phases.map((p) => Math.max(p.rate, p.rampTo ?? p.rate)));
  return { model: 'open', peakRate, unit };
}

/** Reads the stack's side before the load and says on stderr what it found wrong. */
export async function stackPreflight(
  option: StackOption,
  url: string,
  offered: Offered,
  expectedMs?: number,
): Promise<StackSide> {
  console.error(`reading stack ${option.name}: its limits now, its Lambda side after the run…`);
  const side = await StackSide.preflight(option, url, offered, expectedMs);
  for (const warning of side.report.warnings) console.error(`warning: ${warning}`);
  for (const problem of side.report.problems) console.error(`note: ${problem}`);
  return side;
}

/**
 * Reads the Lambda side of the run that started at `start` and has just ended. CloudWatch may take minutes to count
 * the run: Ctrl-C skips the rest of the wait (the report still comes, saying what was missing), where it would
 * otherwise end the process and lose the report.
 */
export async function stackAfterRun(side: StackSide, start: Date, answered: number): Promise<StackReport> {
  const skip = new AbortController();
  const onInterrupt = () => skip.abort();
  process.on('SIGINT', onInterrupt);
  try {
    return await side.afterRun({ start, end: new Date() }, answered, {
      now: () => Date.now(),
      sleep: (ms) => sleep(ms, undefined, { signal: skip.signal }).catch(() => undefined),
      onWait: (message) => console.error(`${message} (Ctrl-C skips the wait)`),
      skipped: skip.signal,
    });
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
