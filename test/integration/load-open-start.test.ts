import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatReport, type LoadReport } from '@mcp-lambda/dev/load';
import { DEV_BIN, ending, start, type Run } from '../support/npm-start.ts';

/**
 * The open model against `npm start`, the app's own function behind the local server, as a user runs both:
 * `npm run load -- --rate 50 --duration 10` sends 500 requests ± 5 % whether the function answers at once or,
 * with LOCAL_DELAY_MS=300 (npm start's testing aid), each request waits 300 ms before it reaches the function. The
 * slow run keeps the rate while its latencies grow by the wait, and the report shows both. The server's own log
 * (one `request` line per HTTP request) says how many calls arrived and over how long.
 */

/** What the server logged of the run's tools/call requests: how many, and the seconds from the first to the last. */
function callsLogged(run: Run): { count: number; spanS: number } {
  const calls = run.stdout
    .map((line) => JSON.parse(line) as { message?: string; rpcMethod?: string; timestamp?: string })
    .filter((line) => line.message === 'request' && line.rpcMethod === 'tools/call')
    .map((line) => Date.parse(line.timestamp!));
  // The first is the preflight's call, before the load.
  const load = calls.slice(1);
  return { count: load.length, spanS: (Math.max(...load) - Math.min(...load)) / 1000 };
}

/** Starts `npm start` with `env`, runs the open model at 50 requests/s for 10 s against it, and stops it. */
async function openRun(env: Record<string, string>): Promise<{ report: LoadReport; server: Run }> {
  let stdout = '';
  const server = await start({ PORT: '0', POWERTOOLS_LOG_LEVEL: 'INFO', ...env }, async (url) => {
    ({ stdout } = await promisify(execFile)(
      process.execPath,
      [DEV_BIN, 'load', '--url', url, '--rate', '50', '--duration', '10', '--json'],
      { timeout: 60_000, maxBuffer: 1 << 20 },
    ));
  });
  expect(server.code, ending(server)).toBe(0);
  return { report: JSON.parse(stdout) as LoadReport, server };
}

/** 500 ± 5 %: what 50 requests/s for 10 s must send, whatever the server's latency; the server got each of them. */
function expectFiveHundred({ report, server }: { report: LoadReport; server: Run }): void {
  const open = report.open!;
  expect(open.sent).toBeGreaterThanOrEqual(475);
  expect(open.sent).toBeLessThanOrEqual(525);
  expect(open).toMatchObject({
    planned: 500,
    scheduled: 500,
    notSent: 0,
    answered: open.sent,
    offeredRate: 50,
  });
  expect(report).toMatchObject({ model: 'open', passed: true, errors: 0, requests: open.sent });
  const logged = callsLogged(server);
  expect(logged.count).toBe(open.sent);
  // Nothing leaves before it is due, so the calls reach the server over the whole schedule, not in a burst.
  expect(logged.spanS).toBeGreaterThan(9);
  // The text report shows the rate and the latencies.
  const text = formatReport(report);
  expect(text).toContain(`${open.scheduled} scheduled (50 req/s offered), ${open.sent} sent`);
  expect(text).toMatch(/latency ms {4}p50 [\d.]+ {2}p90 [\d.]+ {2}p99 [\d.]+ {2}max [\d.]+/);
}

describe('an open-model run at 50 requests/s for 10 s against npm start', () => {
  let fast: LoadReport;

  it('sends 500 requests when the function answers at once', { timeout: 90_000 }, async () => {
    const run = await openRun({});
    expectFiveHundred(run);
    fast = run.report;
  });

  it(
    'sends 500 requests when each waits 300 ms (LOCAL_DELAY_MS), and the latencies grow by the wait',
    { timeout: 90_000 },
    async () => {
      const run = await openRun({ LOCAL_DELAY_MS: '300' });
      expectFiveHundred(run);
      const { latencyMs, open } = run.report;
      // Each latency runs from the intended start, so none is shorter than the server's 300 ms.
      expect(latencyMs.p50).toBeGreaterThanOrEqual(300);
      expect(latencyMs.mean).toBeGreaterThanOrEqual(300);
      if (fast) expect(latencyMs.p50).toBeGreaterThanOrEqual(fast.latencyMs.p50 + 250);
      // A request every 20 ms, each held 300 ms: many wait at once (a closed loop of one connection would hold one).
      expect(open!.peakInFlight).toBeGreaterThanOrEqual(5);
    },
  );
});
