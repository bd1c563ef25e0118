/**
 * The custom metrics an Artillery worker emits for a scenario, and their names, which the report reads back
 * (results.ts). Per step of each flow: a counter per kind it ended as (`ok`, `tool-error`, `rpc-error`, …), a
 * counter of the requests it sent and a histogram of its latency; per flow the same for its runs; and one histogram
 * of every step's latency, since percentiles cannot be summed afterwards. A step is named by its flow, its place
 * and its label: "mcp.list-then-ping.2 tools/list.ok".
 */
import type { Kind } from '../samples.ts';
import { stepLatency, stepSlots, type FlowLog } from '../scenario/recording.ts';
import type { Flow } from '../scenario/types.ts';

/** The part of Artillery's events a processor function receives that custom metrics use. */
export interface ArtilleryEvents {
  emit(type: 'counter' | 'histogram', name: string, value: number): unknown;
}

/** The metric names of each step of a flow, in the order its runs file them (`initialize` first, handshake era). */
export const stepNames = (flow: Flow): string[] =>
  stepSlots(flow).map((step, i) => `mcp.${flow.name}.${i + 1} ${step.label}`);

/** The metric name of a flow's runs. */
export const runsName = (flow: Flow): string => `mcp.${flow.name}.runs`;

/** The histogram of every step's latency. */
export const ALL_STEPS_MS = 'mcp.steps.ms';

/** Counted once for each virtual user a failed preflight kept from starting. */
export const PREFLIGHT_FAILED = 'mcp.preflight.failed';

/** The suffixes of a step's (or a flow's runs') metrics: a counter per kind, the requests, the latency. */
export const kindName = (name: string, kind: Kind): string => `${name}.${kind}`;
export const requestsName = (name: string): string => `${name}.requests`;
export const latencyName = (name: string): string => `${name}.ms`;

/**
 * A worker's flow log: each step and flow run as Artillery metrics, on the worker's clock. The first failure of each
 * kind per step goes to stderr, once per worker, since a metric cannot carry what was seen.
 */
export class ArtilleryLog implements FlowLog {
  private readonly origin = performance.now();
  private readonly steps: string[][];
  private readonly runs: string[];
  private readonly told = new Set<string>();

  constructor(
    flows: readonly Flow[],
    private readonly events: ArtilleryEvents,
  ) {
    this.steps = flows.map(stepNames);
    this.runs = flows.map(runsName);
  }

  now(): number {
    return performance.now() - this.origin;
  }

  step(flow: number, step: number, end: { kind: Kind; detail?: string }, startMs: number, requests: number) {
    const name = this.steps[flow]![step]!;
    const latency = stepLatency(end.kind, this.now(), startMs);
    this.events.emit('counter', kindName(name, end.kind), 1);
    if (requests > 0) this.events.emit('counter', requestsName(name), requests);
    if (latency !== undefined) {
      this.events.emit('histogram', latencyName(name), latency);
      this.events.emit('histogram', ALL_STEPS_MS, latency);
    }
    this.tell(name, end);
  }

  run(flow: number, kind: Kind, startMs: number): void {
    const name = this.runs[flow]!;
    this.events.emit('counter', kindName(name, kind), 1);
    this.events.emit('histogram', latencyName(name), this.now() - startMs);
  }

  private tell(name: string, end: { kind: Kind; detail?: string }): void {
    const key = kindName(name, end.kind);
    if (end.kind === 'ok' || end.detail === undefined || this.told.has(key)) return;
    this.told.add(key);
    console.error(`${key}: ${end.detail.length > 200 ? `${end.detail.slice(0, 200)}…` : end.detail}`);
  }
}
