import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtilleryReport, ScenarioReport } from '@mcp-lambda/dev/load';
import { requireArtillery } from '../support/artillery.ts';
import { DEV_BIN, ending, start } from '../support/npm-start.ts';

/**
 * The scenario the dev package ships (packages/dev/scenarios/agents.json) on Artillery against `npm start`, as a
 * user runs them: `npm run load -- --emit artillery` writes the test, Artillery runs it (`artillery run --output`,
 * the npm package installed by test/support/artillery.ts), and `npm run load -- --from-artillery` reads its JSON.
 * Every step of every flow counts what the built-in engine's run of the same scenario and amount counts (30 flow
 * runs on 3 connections: the closed model, one Artillery virtual user per connection), with no failure, and the
 * HTML report renders from Artillery's JSON.
 */

const EXAMPLE = fileURLToPath(new URL('../../packages/dev/scenarios/agents.json', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'load-artillery-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let artillery: string | undefined;
beforeAll(async () => {
  artillery = await requireArtillery('load-artillery.test.ts');
}, 360_000);

const run = promisify(execFile);
const load = async (...args: string[]) =>
  (await run(process.execPath, [DEV_BIN, 'load', ...args], { timeout: 90_000 })).stdout;

/** Each step's count, its ok results and the requests it sent, by flow; and each flow's runs. */
const stepFigures = (report: Pick<ScenarioReport, 'flows'>) =>
  Object.fromEntries(
    report.flows.map((flow) => [
      flow.name,
      [flow.runs.count, ...flow.steps.map((s) => [s.step, s.count, s.outcomes.ok, s.requests])],
    ]),
  );

describe('the shipped scenario on Artillery against npm start', () => {
  it('counts every step as the built-in engine does, and the report renders from its JSON', async (context) => {
    if (artillery === undefined) return context.skip();
    const dir = join(folder, 'test');
    const results = join(folder, 'results.json');
    const page = join(folder, 'artillery.html');
    let builtIn: ScenarioReport | undefined;
    let fromArtillery: ArtilleryReport | undefined;
    const server = await start(
      { PORT: '0', POWERTOOLS_LOG_LEVEL: 'WARN', OFFLOAD_BUCKET: undefined },
      async (url) => {
        builtIn = JSON.parse(await load('--url', url, '--scenario', EXAMPLE, '--json')) as ScenarioReport;
        await load('--url', url, '--scenario', EXAMPLE, '--emit', 'artillery', dir);
        await run(process.execPath, [artillery!, 'run', '--output', results, join(dir, 'artillery.yml')], {
          timeout: 120_000,
          env: { ...process.env, ARTILLERY_DISABLE_TELEMETRY: 'true' },
        });
        const args = [
          '--from-artillery',
          results,
          '--scenario',
          EXAMPLE,
          '--url',
          url,
          '--json',
          '--report',
          page,
        ];
        fromArtillery = JSON.parse(await load(...args)) as ArtilleryReport;
      },
    );
    expect(server.code, ending(server)).toBe(0);
    expect(builtIn).toMatchObject({ flowRuns: 30, requests: 100, passed: true });
    expect(fromArtillery).toMatchObject({
      engine: 'artillery',
      flowRuns: 30,
      requests: 100,
      vusers: { created: 3, completed: 3, failed: 0, skipped: 0 },
      errors: {},
      passed: true,
    });
    expect(fromArtillery!.steps).toMatchObject({ count: 70, failures: 0, outcomes: { ok: 70 } });
    expect(stepFigures(fromArtillery!)).toEqual(stepFigures(builtIn!));
    for (const step of fromArtillery!.flows.flatMap((flow) => flow.steps)) {
      expect(step.latencyMs.p50, step.step).toBeGreaterThan(0);
      expect(step.latencyMs.p99).toBeGreaterThanOrEqual(step.latencyMs.p50);
    }
    const html = readFileSync(page, 'utf8').replaceAll('\n', ' ');
    expect(html).toContain('<span class="verdict pass" data-metric="verdict">PASS</span>');
    expect(html).toMatch(
      /<tr data-flow="report-then-read" data-step="read_output">.*?data-metric="requests" data-value="20"/,
    );
    expect(html).toMatch(/<table id="periods">.*data-metric="steps"/);
  }, 300_000);
});
