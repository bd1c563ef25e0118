/**
 * The file an emitted Artillery test carries beside its script (`PLAN_FILE`): the scenario as
 * `npm run load -- --scenario` checked it, and the run's settings the script cannot hold (the headers, the timeout,
 * the closed model's end). The processor reads it on each worker, so every worker runs the scenario unchanged.
 */
import { readFileSync } from 'node:fs';
import type { ClosedEnd } from '../scenario/loop.ts';
import type { Scenario } from '../scenario/types.ts';

/** The plan file's name, beside the test script. */
export const PLAN_FILE = 'mcp-load.json';

/** What the plan file says is in it, so a processor never reads a file of another shape as its own. */
const FORMAT = 'mcp-lambda-load-artillery/1';

/** What each worker needs to run the scenario as `npm run load` would. */
export interface Plan {
  format: typeof FORMAT;
  /** The checked scenario: its flows with every default filled in. */
  scenario: Scenario;
  /** --header values over the scenario's headers (lower-case names). */
  headers: Record<string, string>;
  /** Seconds to wait for one response. */
  timeoutS: number;
  /** Sockets each worker keeps to the endpoint at most: one per flow run at once. */
  maxSockets: number;
  /** The closed model's end, shared by a worker's connections; absent in the open model. */
  closed?: ClosedEnd;
}

/** The plan of a run, as the emitter writes it. */
export const plan = (fields: Omit<Plan, 'format'>): Plan => ({ format: FORMAT, ...fields });

/** Reads the plan file at `path`; throws when it is not one. */
export function readPlan(path: string): Plan {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Plan>;
  if (parsed.format !== FORMAT)
    throw new Error(`${path} is not a plan of this processor (format ${JSON.stringify(parsed.format)})`);
  return parsed as Plan;
}
