import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LoadOptions,
  prepare,
  PreflightError,
  fire,
  runLoad,
  type LoadReport,
  RunRecorder,
} from '@mcp-lambda/dev/load';
import { serveMcpFunction } from '../support/local.ts';
import { DEV_BIN } from '../support/npm-start.ts';
import type { RunningServer } from '@mcp-lambda/dev/testing';

let server: RunningServer;

beforeAll(async () => {
  server = await serveMcpFunction();
});

afterAll(async () => {
  await server.close();
});

const options = (overrides: Partial<LoadOptions>): LoadOptions => ({
  url: server.url,
  tool: 'ping',
  args: {},
  connections: 2,
  durationS: 1,
  amount: 40,
  headers: {},
  era: 'handshake',
  initialize: false,
  timeoutS: 5,
  json: false,
  ...overrides,
});

describe('the load command against the MCP function on loopback', () => {
  it('counts every handshake tools/call as a result and passes', async () => {
    const report = await runLoad(options({ initialize: true }));
    expect(report.passed).toBe(true);
    expect(report.outcomes.ok).toBeGreaterThanOrEqual(40);
    expect(report.outcomes['rpc-error'] + report.outcomes['non-2xx'] + report.outcomes.malformed).toBe(0);
    expect(report.errors).toBe(0);
    expect(report.protocolVersion).toBe('2025-11-25');
  });

  it('speaks the 2026-07-28 revision with --era stateless', async () => {
    const report = await runLoad(options({ era: 'stateless', initialize: true }));
    expect(report.passed).toBe(true);
    expect(report.protocolVersion).toBe('2026-07-28');
    expect(report.outcomes.ok).toBeGreaterThanOrEqual(40);
  });

  it('counts isError results apart from failures, and still passes', async () => {
    const report = await runLoad(options({ tool: 'safe_divide', args: { a: 1, b: 0 } }));
    expect(report.passed).toBe(true);
    expect(report.outcomes.ok).toBe(0);
    expect(report.outcomes['tool-error']).toBeGreaterThanOrEqual(40);
    expect(report.samples['tool-error']).toMatch(/^isError: Cannot divide by zero/);
  });

  it.each([
    ['a tool the server does not list', { tool: 'nope' }, /does not list a tool named "nope"/],
    [
      'a forbidden origin',
      { headers: { origin: 'https://evil.example' } },
      /tools\/list failed with HTTP 403/,
    ],
    [
      'an unsupported revision',
      { era: 'stateless' as const, protocolVersion: '2099-01-01' },
      /HTTP 400: -32022/,
    ],
  ])('stops before the load when the preflight meets %s', async (_name, overrides, message) => {
    const error: unknown = await runLoad(options(overrides)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as Error).message).toMatch(message);
  });

  const cli = (...argv: string[]) =>
    promisify(execFile)(process.execPath, [DEV_BIN, 'load', ...argv], {
      timeout: 30_000,
    });

  it('runs as `npm run load` and prints a JSON report', async () => {
    const { stdout } = await cli('--url', server.url, '--amount', '20', '--connections', '2', '--json');
    const report = JSON.parse(stdout) as LoadReport;
    expect(report).toMatchObject({ tool: 'ping', era: 'handshake', passed: true, errors: 0, requests: 20 });
    expect(report.latencyMs).toEqual({
      p50: expect.any(Number),
      p90: expect.any(Number),
      p99: expect.any(Number),
      max: expect.any(Number),
      mean: expect.any(Number),
    });
    // durationS is rounded to the millisecond; the rate is computed before that.
    expect(report.requestsPerSecond).toBeGreaterThanOrEqual(
      report.requests / (report.durationS + 0.0005) - 0.05,
    );
    expect(report.requestsPerSecond).toBeLessThanOrEqual(
      report.requests / (report.durationS - 0.0005) + 0.05,
    );
  });

  it('runs --amount 5 below the default 10 connections on 5 connections, and says so', async () => {
    const { stdout, stderr } = await cli('--url', server.url, '--amount', '5', '--json');
    expect(stderr).toContain('note: --amount 5 is below 10 connections: using 5 connections');
    expect(JSON.parse(stdout)).toMatchObject({ connections: 5, requests: 5, passed: true });
  });

  it('runs the open model with --rate: the schedule sent, offered against achieved in the JSON report', async () => {
    const { stdout, stderr } = await cli('--url', server.url, '--rate', '20', '--duration', '2', '--json');
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as LoadReport;
    expect(report).toMatchObject({
      model: 'open',
      passed: true,
      requests: 40,
      open: { planned: 40, scheduled: 40, sent: 40, notSent: 0, answered: 40, offeredRate: 20 },
    });
    expect(report.connections).toBeUndefined();
    expect(report.open!.achievedRate).toBe(report.requestsPerSecond);
  });

  it.each([
    ['an unknown era', ['--era', 'x'], /^error: --era must be handshake or stateless \(got "x"\)/],
    [
      'both models',
      ['--rate', '5', '--connections', '2'],
      /^error: --connections \(the closed model\) and --rate/,
    ],
    ['both --amount and --duration', ['--amount', '5', '--duration', '2'], /^error: --amount and --duration/],
    ['a report that is neither HTML nor SVG', ['--report', 'load.pdf'], /^error: --report must name a .html/],
  ])('exits with 2 and one line, no stack trace, on %s', async (_name, argv, message) => {
    const run = cli('--url', server.url, ...argv);
    const error = (await run.catch((e: unknown) => e)) as { code: number; stderr: string; stdout: string };
    expect(error.code).toBe(2);
    expect(error.stderr).toMatch(message);
    expect(error.stderr.trim().split('\n')).toHaveLength(1);
    expect(error.stderr).not.toMatch(/\n\s+at /);
    expect(error.stdout).toBe('');
  });

  it('refuses a report path that is a folder before the run', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'load-report-'));
    try {
      mkdirSync(join(folder, 'taken.html'));
      const error = (await cli('--url', server.url, '--report', join(folder, 'taken.html')).catch(
        (e: unknown) => e,
      )) as { code: number; stderr: string };
      expect(error.code).toBe(2);
      expect(error.stderr).toMatch(/^error: --report: .*taken\.html is a folder/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('writes a self-contained HTML report with --report', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'load-report-'));
    try {
      const file = join(folder, 'new-folder', 'load.html');
      const { stderr } = await cli(
        '--url',
        server.url,
        '--amount',
        '200',
        '--connections',
        '4',
        '--report',
        file,
      );
      expect(stderr).toContain(`report written to ${file}`);
      expect(existsSync(file)).toBe(true);
      const html = readFileSync(file, 'utf8');
      for (const chart of ['percentiles', 'histogram', 'throughput'])
        expect(html).toContain(`data-chart="${chart}"`);
      expect(html).toMatch(/<td class="num" data-metric="requests" data-value="200">/);
      expect(html).not.toMatch(/<script|<link|src=/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** A loopback MCP responder with a fixed service time, that notes when it received and answered each call. */
function slowServer(delayMs: number, dropCall?: number) {
  const calls: { receivedMs: number; answeredMs?: number }[] = [];
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
      const call = { receivedMs: performance.now() } as (typeof calls)[number];
      calls.push(call);
      if (calls.length === dropCall) return req.socket.destroy();
      setTimeout(() => {
        call.answeredMs = performance.now();
        answer({ content: [{ type: 'text', text: 'pong' }] });
      }, delayMs);
    });
  });
  return {
    calls,
    url: () => `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    listen: () => new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

describe('the rate of an --amount run', () => {
  it('is the answers over the real elapsed time, as the server saw it', async () => {
    const DELAY_MS = 25;
    const target = slowServer(DELAY_MS);
    await target.listen();
    try {
      const options = {
        url: target.url(),
        tool: 'ping',
        args: {},
        connections: 2,
        durationS: 10,
        amount: 20,
        headers: {},
        era: 'handshake' as const,
        initialize: false,
        timeoutS: 5,
        json: false,
      };
      const prepared = await prepare(options);
      target.calls.length = 0;
      const before = performance.now();
      const report = await fire(options, prepared);
      const firedS = (performance.now() - before) / 1000;
      expect(report).toMatchObject({ requests: 20, passed: true });
      // Two connections, 10 calls each of at least 25 ms: the load took at least 0.25 s and can never exceed
      // 80 req/s. Whole seconds made this run "1 s, 20 req/s".
      const answered = target.calls.map((c) => c.answeredMs!);
      const serverSpanS = (Math.max(...answered) - Math.min(...target.calls.map((c) => c.receivedMs))) / 1000;
      expect(serverSpanS).toBeGreaterThanOrEqual(0.25);
      // The real elapsed time, on the same clock: no shorter than what the server saw, no longer than the run
      // itself took (however long a busy machine took to connect and to read the answers); durationS is rounded to
      // the millisecond. A whole second, rounded up or down, is neither on a machine that runs this in under one.
      expect(report.durationS).toBeGreaterThanOrEqual(serverSpanS - 0.001);
      expect(report.durationS).toBeLessThanOrEqual(firedS + 0.0005);
      expect(report.requestsPerSecond).toBeLessThanOrEqual(80);
      expect(Math.abs(report.requestsPerSecond - 20 / report.durationS)).toBeLessThan(0.5);
    } finally {
      await target.close();
    }
  });

  it('counts a request whose connection closed before the answer as a transport error', async () => {
    const target = slowServer(1, 5);
    await target.listen();
    try {
      const options = {
        url: target.url(),
        tool: 'ping',
        args: {},
        connections: 1,
        durationS: 10,
        amount: 12,
        headers: {},
        era: 'handshake' as const,
        initialize: false,
        timeoutS: 5,
        json: false,
      };
      const recorder = new RunRecorder();
      const report = await fire(options, await prepare(options), undefined, recorder);
      expect(report).toMatchObject({ requests: 11, errors: 1, timeouts: 0, passed: false });
      expect(recorder.details['transport-error']).toBe('the connection closed before the answer');
    } finally {
      await target.close();
    }
  });
});
