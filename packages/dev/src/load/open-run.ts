/**
 * The open model of a load run: requests launched on a schedule (schedule.ts) whatever the answers do, so a slow
 * server meets the traffic it would meet in use instead of setting the pace itself. Each request's latency is
 * timed from its intended start, not from when it left: when the server (or this machine) falls behind, the
 * wait shows in the latencies instead of being left out (the "coordinated omission" of a closed loop).
 */
import type { Agent as HttpAgent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { classify, type Outcome } from './classify.ts';
import { agentFor, exchange } from './exchange.ts';
import type { WireRequest } from './mcp-request.ts';
import type { RunRecorder } from './samples.ts';
import { Schedule, type OpenPlan } from './schedule.ts';

/** What became of an open run's schedule. */
export interface Arrivals {
  /** Requests that came due (all the schedule holds, unless the run was stopped early). */
  scheduled: number;
  /** Requests sent. */
  sent: number;
  /** Requests due while `maxInFlight` requests waited for their answers: never sent. */
  notSent: number;
  /** The most requests in flight at once. */
  peakInFlight: number;
  /** The latest a request left after its intended start (ms): how far this machine fell behind the schedule. */
  maxSendLagMs: number;
}

/** How one request ended, as the recorder files it. */
type Ending =
  | { kind: 'timeout'; detail: string }
  | { kind: 'transport-error'; detail: string }
  | { kind: Outcome; detail?: string; answered: true };

/** Sends one request and classifies its answer; never rejects, a failure is an ending of its own. */
async function sendOne(
  url: URL,
  request: WireRequest,
  body: Buffer,
  agent: HttpAgent,
  timeoutS: number,
): Promise<Ending> {
  const ended = await exchange(url, request, body, agent, timeoutS);
  if (ended.kind !== 'answer') return ended;
  const { outcome, detail } = classify(ended.status, ended.headers['content-type'], ended.body);
  return { kind: outcome, ...(detail !== undefined ? { detail } : {}), answered: true };
}

/**
 * Walks `schedule`: at each intended start (ms on the `now` clock) launches the next arrival, unless `maxInFlight`
 * are still running (then it is counted as not sent); returns once every launched arrival has ended. `signal` stops
 * the schedule; arrivals already running still end. `launch` gets the arrival's number (0, 1, ...) and its
 * intended start, and must not reject.
 */
export async function arrive(
  schedule: Schedule,
  maxInFlight: number,
  now: () => number,
  launch: (index: number, dueMs: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<Arrivals> {
  const arrivals: Arrivals = { scheduled: 0, sent: 0, notSent: 0, peakInFlight: 0, maxSendLagMs: 0 };
  const inFlight = new Set<Promise<void>>();
  while (arrivals.scheduled < schedule.count && !signal?.aborted) {
    const dueMs = schedule.dueMs(arrivals.scheduled);
    // Each wait is measured against the clock, never chained from the last one, so timer delays do not add up.
    const waitMs = dueMs - now();
    if (waitMs > 0) {
      await sleep(waitMs, undefined, signal ? { signal } : {}).catch(() => undefined);
      continue;
    }
    arrivals.scheduled++;
    if (inFlight.size >= maxInFlight) {
      arrivals.notSent++;
      continue;
    }
    arrivals.maxSendLagMs = Math.max(arrivals.maxSendLagMs, -waitMs);
    const ended = launch(arrivals.sent++, dueMs).then(() => {
      inFlight.delete(ended);
    });
    inFlight.add(ended);
    arrivals.peakInFlight = Math.max(arrivals.peakInFlight, inFlight.size);
  }
  while (inFlight.size > 0) await Promise.all(inFlight);
  return arrivals;
}

/**
 * Runs the schedule of `plan`, filing every request in `recorder` as it ends: an answer with its latency from its
 * intended start, a timeout or a transport error without one. `signal` stops the schedule (Ctrl-C); the requests
 * already in flight still end, each within the timeout. `limit` cuts the schedule at that many requests.
 */
export async function fireOpen(
  target: { url: string; timeoutS: number; plan: OpenPlan; limit?: number },
  request: WireRequest,
  recorder: RunRecorder,
  signal?: AbortSignal,
): Promise<Arrivals> {
  const url = new URL(target.url);
  const body = Buffer.from(request.body, 'utf8');
  const schedule = new Schedule(target.plan.phases, target.limit);
  const agent = agentFor(url, target.plan.maxInFlight);
  const send = async (_index: number, dueMs: number) => {
    const ending = await sendOne(url, request, body, agent, target.timeoutS);
    const atMs = recorder.now();
    if ('answered' in ending) recorder.record(atMs, ending.kind, atMs - dueMs, ending.detail);
    else recorder.record(atMs, ending.kind, undefined, ending.detail);
  };
  recorder.start();
  try {
    return await arrive(schedule, target.plan.maxInFlight, () => recorder.now(), send, signal);
  } finally {
    agent.destroy();
  }
}
