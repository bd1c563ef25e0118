import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadOptions } from '../../src/load/options.ts';
import { prepare } from '../../src/load/preflight.ts';
import { fire, type LoadReport } from '../../src/load/run.ts';
import { RunRecorder } from '../../src/load/samples.ts';
import type { OpenPlan } from '../../src/load/schedule.ts';

/**
 * The open model against a loopback MCP responder whose service time the test sets: the requests go out on the
 * schedule whatever the server's pace, and each latency is timed from the request's intended start. The counts are
 * what the tests hold exactly or within 5 %; timings are held only where a busy machine can only make them larger.
 */

/**
 * A loopback responder that answers each tools/call after `delayMs`, noting when each call arrived; `onCall` sees
 * the count of calls so far as each arrives.
 */
function responder(delayMs: number, onCall?: (count: number) => void) {
  const received: number[] = [];
  const http: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id: number; method: string };
      const answer = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      };
      if (message.method === 'tools/list')
        return answer({ tools: [{ name: 'ping', inputSchema: { type: 'object' } }] });
      received.push(performance.now());
      onCall?.(received.length);
      setTimeout(() => answer({ content: [{ type: 'text', text: 'pong' }] }), delayMs);
    });
  });
  return {
    received,
    url: () => `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    listen: () => new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

let servers: ReturnType<typeof responder>[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** Starts a responder, preflights it as the command does, and runs the open plan against it. */
async function openRun(
  delayMs: number,
  plan: OpenPlan,
  during?: { signal?: AbortSignal; recorder?: RunRecorder; onCall?: (count: number) => void },
): Promise<{ report: LoadReport; received: number[] }> {
  const server = responder(delayMs, (count) => during?.onCall?.(count));
  servers.push(server);
  await server.listen();
  const options: LoadOptions = {
    url: server.url(),
    tool: 'ping',
    args: {},
    connections: 10,
    durationS: plan.phases.reduce((sum, p) => sum + p.durationS, 0),
    headers: {},
    era: 'handshake',
    initialize: false,
    timeoutS: 10,
    json: false,
    open: plan,
  };
  const prepared = await prepare(options);
  // The preflight's call is not one of the run's.
  server.received.length = 0;
  const report = await fire(options, prepared, during?.signal, during?.recorder);
  return { report, received: server.received };
}

const STEADY_50: OpenPlan = { phases: [{ rate: 50, durationS: 10 }], maxInFlight: 1000 };

/** 500 ± 5 %: what 50 requests/s for 10 s must send, whatever the server's latency. */
function expectFiveHundred(report: LoadReport, received: number[]): void {
  const open = report.open!;
  expect(open.sent).toBeGreaterThanOrEqual(475);
  expect(open.sent).toBeLessThanOrEqual(525);
  expect(open).toMatchObject({ planned: 500, scheduled: 500, notSent: 0, answered: open.sent });
  expect(received).toHaveLength(open.sent);
  // Nothing leaves before it is due, so the calls reach the server over the whole schedule, not in a burst.
  expect((Math.max(...received) - Math.min(...received)) / 1000).toBeGreaterThan(9);
  expect(report).toMatchObject({ model: 'open', passed: true, errors: 0 });
}

describe('an open-model run at 50 requests/s for 10 s', () => {
  it('sends 500 requests to a fast server', { timeout: 60_000 }, async () => {
    const { report, received } = await openRun(0, STEADY_50);
    expectFiveHundred(report, received);
  });

  it(
    'sends 500 requests to a server that answers after 300 ms, and the latencies include it',
    { timeout: 60_000 },
    async () => {
      const { report, received } = await openRun(300, STEADY_50);
      expectFiveHundred(report, received);
      // Each latency runs from the intended start, so none is shorter than the server's 300 ms.
      expect(report.latencyMs.p50).toBeGreaterThanOrEqual(300);
      expect(report.latencyMs.mean).toBeGreaterThanOrEqual(300);
      // A request every 20 ms, each held 300 ms: many wait at once (a closed loop of one connection would hold one).
      expect(report.open!.peakInFlight).toBeGreaterThanOrEqual(5);
    },
  );
});

describe('the open model', () => {
  it('counts the requests the in-flight cap kept from being sent, and fails the run', async () => {
    // 50 due in 1 s; the server holds each 2 s, so the five allowed in flight never free a place.
    const { report, received } = await openRun(2000, {
      phases: [{ rate: 50, durationS: 1 }],
      maxInFlight: 5,
    });
    expect(report.open).toMatchObject({ scheduled: 50, sent: 5, notSent: 45, answered: 5, peakInFlight: 5 });
    expect(received).toHaveLength(5);
    expect(report.passed).toBe(false);
  });

  it('times each request from its intended start: a stall of this machine shows in the latencies', async () => {
    // The server shares this process: at the 25th call (0.5 s into the run) it blocks the event loop for 500 ms.
    // The requests due meanwhile leave late, and the wait is in their latencies.
    const stall = (count: number) => {
      if (count !== 25) return;
      const until = performance.now() + 500;
      while (performance.now() < until);
    };
    const { report } = await openRun(
      0,
      { phases: [{ rate: 50, durationS: 2 }], maxInFlight: 1000 },
      { onCall: stall },
    );
    expect(report.open).toMatchObject({ scheduled: 100, sent: 100, notSent: 0 });
    expect(report.open!.maxSendLagMs).toBeGreaterThanOrEqual(400);
    expect(report.latencyMs.max).toBeGreaterThanOrEqual(400);
  });

  it('stops the schedule on the signal, and every request sent still ends', async () => {
    const stop = new AbortController();
    const recorder = new RunRecorder();
    setTimeout(() => stop.abort(), 1000);
    const { report } = await openRun(200, STEADY_50, { signal: stop.signal, recorder });
    const open = report.open!;
    expect(open.scheduled).toBeGreaterThan(0);
    expect(open.scheduled).toBeLessThan(500);
    expect(recorder.ended).toBe(open.sent);
    expect(open.answered).toBe(open.sent);
  });
});
