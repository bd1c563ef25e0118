import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadOptions } from '../load/options.ts';
import { PreflightError, runLoad, type LoadReport } from '../load/run.ts';
import { serveMcpFunction, type RunningServer } from '../support/local.ts';

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
  era: 'legacy',
  initialize: false,
  timeoutS: 5,
  json: false,
  ...overrides,
});

describe('the load command against the MCP function on loopback', () => {
  it('counts every legacy tools/call as a result and passes', async () => {
    const report = await runLoad(options({ initialize: true }));
    expect(report.passed).toBe(true);
    expect(report.outcomes.ok).toBeGreaterThanOrEqual(40);
    expect(report.outcomes['rpc-error'] + report.outcomes['non-2xx'] + report.outcomes.malformed).toBe(0);
    expect(report.errors).toBe(0);
    expect(report.protocolVersion).toBe('2025-11-25');
  });

  it('speaks the 2026-07-28 revision with --era modern', async () => {
    const report = await runLoad(options({ era: 'modern', initialize: true }));
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
      { era: 'modern' as const, protocolVersion: '2099-01-01' },
      /HTTP 400: -32022/,
    ],
  ])('stops before the load when the preflight meets %s', async (_name, overrides, message) => {
    const error: unknown = await runLoad(options(overrides)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as Error).message).toMatch(message);
  });

  it('runs as `npm run load` and prints a JSON report', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'test/load/cli.ts',
        '--url',
        server.url,
        '--amount',
        '20',
        '--connections',
        '2',
        '--json',
      ],
      { timeout: 30_000 },
    );
    const report = JSON.parse(stdout) as LoadReport;
    expect(report).toMatchObject({ tool: 'ping', era: 'legacy', passed: true, errors: 0 });
    expect(report.latencyMs).toEqual({
      p50: expect.any(Number),
      p90: expect.any(Number),
      p99: expect.any(Number),
      max: expect.any(Number),
      mean: expect.any(Number),
    });
  });

  it('exits with 2 and the usage text on a usage error', async () => {
    const run = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'test/load/cli.ts', '--url', server.url, '--era', 'x'],
      {
        timeout: 30_000,
      },
    );
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: npm run load'),
    });
  });
});
