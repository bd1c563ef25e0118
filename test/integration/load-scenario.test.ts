import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { formatScenarioReport, type ScenarioReport } from '@mcp-lambda/dev/load';
import { DEV_BIN, ending, start } from '../support/npm-start.ts';

/**
 * The scenario the dev package ships (packages/dev/scenarios/agents.json), run by `npm run load -- --scenario`
 * against `npm start` as a user runs both: three flows, picked in turn, 30 runs on 3 connections. (1) a handshake-era
 * session lists the tools and calls ping; (2) a 2026-07-28 call of generate_report stores a large CSV, and
 * read_output reads two pages of it from its resource_link; (3) a 2026-07-28 generate_report, then delete_output on
 * its link, which asks the person to approve (`input_required`), answered with approve: true and the call sent again
 * with `inputResponses` and `requestState`. Every step is checked, with zero failures, and counted per step.
 */

const EXAMPLE = fileURLToPath(new URL('../../packages/dev/scenarios/agents.json', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'load-scenario-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Each step's count, its ok results and the requests it sent, by flow. */
const stepFigures = (report: ScenarioReport) =>
  Object.fromEntries(
    report.flows.map((flow) => [
      flow.name,
      flow.steps.map((s) => [s.step, s.count, s.outcomes.ok, s.requests]),
    ]),
  );

describe('the shipped scenario against npm start', () => {
  it('runs three flows with every step checked: zero failures, figures per step', async () => {
    const html = join(folder, 'scenario.html');
    let stdout = '';
    const run = await start(
      { PORT: '0', POWERTOOLS_LOG_LEVEL: 'WARN', OFFLOAD_BUCKET: undefined },
      async (url) => {
        ({ stdout } = await promisify(execFile)(
          process.execPath,
          [DEV_BIN, 'load', '--url', url, '--scenario', EXAMPLE, '--json', '--report', html],
          { timeout: 90_000 },
        ));
      },
    );
    expect(run.code, ending(run)).toBe(0);
    const report = JSON.parse(stdout) as ScenarioReport;
    expect(report).toMatchObject({
      scenario: 'agents',
      model: 'closed',
      connections: 3,
      flowRuns: 30,
      passed: true,
    });
    expect(report.steps).toMatchObject({ count: 70, failures: 0, outcomes: { ok: 70, 'tool-error': 0 } });
    expect(report.requests).toBe(100);
    expect(stepFigures(report)).toEqual({
      'list-then-ping': [
        ['initialize', 10, 10, 20],
        ['tools/list', 10, 10, 10],
        ['tools/call ping', 10, 10, 10],
      ],
      // Two pages of each report: two read_output calls.
      'report-then-read': [
        ['tools/call generate_report', 10, 10, 10],
        ['read_output', 10, 10, 20],
      ],
      // Each delete asks once: the call, and the call again with the answer.
      'report-then-delete': [
        ['tools/call generate_report', 10, 10, 10],
        ['ask delete_output', 10, 10, 20],
      ],
    });
    for (const flow of report.flows) {
      expect(flow.runs).toMatchObject({ count: 10, failures: 0 });
      for (const step of flow.steps) {
        expect(step.latencyMs.p50, `${flow.name} / ${step.step}`).toBeGreaterThan(0);
        expect(step.latencyMs.p99).toBeGreaterThanOrEqual(step.latencyMs.p50);
        expect(step.samples).toEqual({});
      }
    }
    expect(formatScenarioReport(report)).toMatch(/\n {4}2\. ask delete_output +10 +10 +0 +0 .* 20\n/);
    const page = readFileSync(html, 'utf8').replaceAll('\n', ' ');
    expect(page).toMatch(
      /<tr data-flow="report-then-read" data-step="read_output">.*?data-metric="requests" data-value="20"/,
    );
    expect(page).toContain('<span class="verdict pass" data-metric="verdict">PASS</span>');
  }, 150_000);
});
