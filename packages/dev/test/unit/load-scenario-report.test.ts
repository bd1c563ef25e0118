import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLoadArgs } from '../../src/load/options.ts';
import { ScenarioRecording } from '../../src/load/scenario/recording.ts';
import type { ScenarioReport } from '../../src/load/scenario/report.ts';
import { renderScenarioHtml } from '../../src/load/scenario/report-html.ts';
import { formatScenarioReport } from '../../src/load/scenario/report-text.ts';
import { runScenario } from '../../src/load/scenario/run.ts';
import type { ScenarioOptions } from '../../src/load/scenario/types.ts';
import { startStub } from './scenario-stub.ts';
import { cloud, stackSide } from './stack-cloud.ts';

/** The reports of a scenario run, text and HTML: every step's figures per flow, and the first failure of each. */

let stub: Awaited<ReturnType<typeof startStub>>;
const folder = mkdtempSync(join(tmpdir(), 'load-scenario-report-'));
let options: ScenarioOptions;
let recording: ScenarioRecording;
let report: ScenarioReport;

beforeAll(async () => {
  stub = await startStub();
  const path = join(folder, 'mixed.json');
  const flows = [
    {
      name: 'listing',
      weight: 2,
      era: 'handshake',
      steps: [{ kind: 'tools/list' }, { kind: 'tools/call', tool: 'ping' }],
    },
    {
      name: 'failing',
      steps: [{ kind: 'tools/call', tool: 'fails', name: 'bad call' }, { kind: 'tools/list' }],
    },
  ];
  writeFileSync(path, JSON.stringify({ name: 'mixed', era: 'stateless', flows }));
  const parsed = parseLoadArgs([
    '--url',
    stub.url,
    '--scenario',
    path,
    '--connections',
    '2',
    '--amount',
    '6',
  ]);
  if (parsed.kind !== 'scenario') throw new Error('not a scenario run');
  options = parsed.options;
  recording = new ScenarioRecording(options.scenario);
  report = await runScenario(options, undefined, recording);
});
afterAll(async () => {
  await stub.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the text report of a scenario run', () => {
  it('has a row per flow and per step, the failures by kind, and the verdict', () => {
    const text = formatScenarioReport(report);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`MCP load scenario: mixed → ${stub.url}`);
    expect(lines[1]).toMatch(
      /^ {2}closed model: 2 connections; 6 flow runs, 14 steps, 18 requests in [\d.]+ s/,
    );
    const row = (label: string) =>
      lines
        .find((l) => l.trimStart().startsWith(label))!
        .trim()
        .split(/\s{2,}/);
    expect(
      lines
        .find((l) => l.trimStart().startsWith('flow / step'))!
        .trim()
        .split(/\s{2,}/),
    ).toEqual([
      'flow / step',
      ...['count', 'ok', 'isError', 'failed', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests'],
    ]);
    expect(row('listing (weight 2, handshake): runs').slice(1, 5)).toEqual(['4', '4', '0', '0']);
    expect(row('1. initialize').slice(1, 5)).toEqual(['4', '4', '0', '0']);
    expect(row('1. initialize').at(-1)).toBe('8');
    expect(row('1. bad call').slice(1, 5)).toEqual(['2', '0', '0', '2']);
    expect(row('all steps').slice(1, 5)).toEqual(['14', '12', '0', '2']);
    expect(text).toContain(
      '  failures      2 JSON-RPC errors, 0 non-2xx, 0 unreadable, 0 transport errors (0 timeouts)',
    );
    expect(text).toContain('    failing / bad call, rpc-error: -32602 bad arguments');
    expect(lines.at(-1)).toBe('  FAIL: some steps failed');
  });
});

describe('the HTML report of a scenario run', () => {
  const html = () => renderScenarioHtml({ options, report, recording });

  it('has every step’s figures, per flow, in data attributes', () => {
    const page = html();
    const cell = (row: string, attribute: string) =>
      new RegExp(`<tr ${row}>.*?${attribute}`).test(page.replaceAll('\n', ' '));
    expect(cell('data-flow="listing" data-step="initialize"', 'data-metric="requests" data-value="8"')).toBe(
      true,
    );
    expect(cell('data-flow="failing" data-step="bad call"', 'data-kind="rpc-error" data-count="2"')).toBe(
      true,
    );
    expect(cell('data-flow="failing" data-step="tools/list"', 'data-metric="count" data-value="0"')).toBe(
      true,
    );
    expect(cell('data-all', 'data-metric="count" data-value="14"')).toBe(true);
    expect(page).toContain('<span class="verdict fail" data-metric="verdict">FAIL</span>');
    expect(page).toMatch(
      /<td>failing \/ bad call<\/td><td>rpc-error<\/td><td class="detail">-32602 bad arguments<\/td>/,
    );
    for (const chart of ['percentiles', 'histogram', 'throughput'])
      expect(page).toContain(`data-chart="${chart}"`);
  });

  it('is self-contained, and never shows the token', () => {
    const page = renderScenarioHtml({ options: { ...options, token: 'very-secret' }, report, recording });
    expect(page).not.toMatch(/<script|<link|src=/);
    expect(page).not.toContain('very-secret');
    expect(page).toContain('bearer token from --token (the token is not shown)');
  });
});

describe('a scenario run against a deployed stack (--stack)', () => {
  it('shows the endpoint’s side and the Lambda side in the text and HTML reports', async () => {
    const stack = await stackSide(cloud().clients);
    const text = formatScenarioReport({ ...report, stack });
    expect(text).toContain('  Endpoint side: stack McpServer (eu-west-1)');
    expect(text).toContain('  invocations   500, 2 errors, 0 throttles; at most 12 concurrent executions');
    expect(text.split('\n').at(-1)).toBe('  FAIL: some steps failed');
    const page = renderScenarioHtml({ options, report: { ...report, stack }, recording });
    expect(page).toContain('<section class="panel" id="endpoint-side">');
    expect(page).toContain('<td class="num" data-metric="lambda-cold-starts" data-value="3">3</td>');
  });
});
