import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { LoadOptions } from '../../src/load/options.ts';
import { prepare } from '../../src/load/preflight.ts';
import { fire, type LoadReport } from '../../src/load/run.ts';
import { RunRecorder } from '../../src/load/samples.ts';
import type { OpenPlan } from '../../src/load/schedule.ts';

/**
 * The open model against a loopback MCP responder whose service time the test sets: the in-flight cap, a stall of
 * this machine, and a stop. The counts are what the tests hold exactly; timings are held only where a busy machine
 * can only make them larger. Its rate against the app's own server, fast and slowed, is
 * test/integration/load-open-start.test.ts.
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
