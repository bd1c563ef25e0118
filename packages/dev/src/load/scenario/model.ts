/**
 * The model a scenario file's `load` names, checked as the command line's model options are (options-model.ts):
 * the closed loop of `connections` (stopping after `durationS` or `amount` flow runs), or flow runs started on a
 * schedule (`rate` with `rampTo`, or `phases`; `maxInFlight`). In a scenario every count is of flow runs.
 */
import type { LoadModel } from '../options-model.ts';
import { Schedule, type Phase } from '../schedule.ts';

/** The `load` object of a scenario file, as the schema lets it through. */
export interface LoadValues {
  connections?: number;
  durationS?: number;
  amount?: number;
  rate?: number;
  rampTo?: number;
  phases?: Phase[];
  maxInFlight?: number;
}

const DEFAULT_CONNECTIONS = 10;
const DEFAULT_DURATION_S = 10;
const MAX_SECONDS = 3600;

/** Throws the first field of `names` that `load` gives, saying why it does not belong. */
function refuse(load: LoadValues, names: (keyof LoadValues)[], why: string): void {
  const given = names.find((name) => load[name] !== undefined);
  if (given !== undefined) throw new Error(`/load/${given}: ${why}`);
}

/** The open model of `rate` (ramping to `rampTo`) or `phases`. */
function openModel(load: LoadValues): Omit<LoadModel, 'notices'> {
  refuse(
    load,
    ['connections'],
    'the closed model’s connections and an open model’s rate or phases: give one',
  );
  let phases: Phase[];
  let amount: number | undefined;
  if (load.phases !== undefined) {
    refuse(load, ['rate', 'rampTo', 'durationS', 'amount'], 'phases hold the rates and how long each lasts');
    phases = load.phases;
  } else {
    const rate = load.rate!;
    if (rate === 0 && !load.rampTo)
      throw new Error('/load/rate: 0 starts nothing: give a rate above 0, or rampTo to ramp up from 0');
    if (load.amount !== undefined) {
      refuse(load, ['durationS'], 'amount and durationS both say when to stop: give one');
      refuse(load, ['rampTo'], 'a ramp lasts durationS: give durationS instead of amount');
      amount = load.amount;
    }
    const durationS = amount !== undefined ? amount / rate : (load.durationS ?? DEFAULT_DURATION_S);
    if (durationS > MAX_SECONDS)
      throw new Error(`/load: the schedule lasts ${durationS} s, more than ${MAX_SECONDS}`);
    phases = [{ rate, ...(load.rampTo !== undefined ? { rampTo: load.rampTo } : {}), durationS }];
  }
  const totalS = phases.reduce((sum, p) => sum + p.durationS, 0);
  if (totalS > MAX_SECONDS) throw new Error(`/load/phases: ${totalS} s in all, more than ${MAX_SECONDS}`);
  if (new Schedule(phases).count === 0)
    throw new Error('/load: the schedule starts no flow run: raise the rates or lengthen the phases');
  return {
    connections: DEFAULT_CONNECTIONS,
    durationS: totalS,
    ...(amount !== undefined ? { amount } : {}),
    open: { phases, maxInFlight: load.maxInFlight ?? 1000 },
  };
}

/** The model of a scenario's `load`; throws an error whose message starts with the path of the bad field. */
export function scenarioModel(load: LoadValues): Omit<LoadModel, 'notices'> {
  if (load.rate === undefined && load.phases === undefined) {
    refuse(load, ['rampTo', 'maxInFlight'], 'an option of the open model: give rate or phases with it');
    if (load.amount !== undefined)
      refuse(load, ['durationS'], 'amount and durationS both say when to stop: give one');
    const connections = Math.min(load.connections ?? DEFAULT_CONNECTIONS, load.amount ?? Infinity);
    return {
      connections,
      durationS: load.durationS ?? DEFAULT_DURATION_S,
      ...(load.amount !== undefined ? { amount: load.amount } : {}),
    };
  }
  return openModel(load);
}
