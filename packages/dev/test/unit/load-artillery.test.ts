import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitArtillery } from '../../src/load/artillery/emit.ts';
import type { ArtilleryEvents } from '../../src/load/artillery/metrics.ts';
import { renderArtilleryHtml } from '../../src/load/artillery/report-html.ts';
import { formatArtilleryReport } from '../../src/load/artillery/report-text.ts';
import { artilleryReport, type ArtilleryMetrics } from '../../src/load/artillery/results.ts';
import { mapModel } from '../../src/load/artillery/script.ts';
import { parseLoadArgs, UsageError } from '../../src/load/options.ts';
import { runScenario } from '../../src/load/scenario/run.ts';
import type { ScenarioOptions } from '../../src/load/scenario/types.ts';
import { startStub } from './scenario-stub.ts';

/**
 * The Artillery engine without Artillery: the command lines of `--emit artillery` and `--from-artillery`, the load
 * model as Artillery phases, and the emitted processor driven as Artillery drives it (a virtual user's context and
 * its events), against a scripted MCP server, its metrics aggregated as Artillery aggregates them and read back
 * into the report, which must count what `npm run load -- --scenario` counts.
 * test/integration/load-artillery.test.ts runs the emitted test with Artillery itself.
 */

let stub: Awaited<ReturnType<typeof startStub>>;
const folder = mkdtempSync(join(tmpdir(), 'load-artillery-'));
const scenarioFile = join(folder, 'scenario.json');
beforeAll(async () => {
  stub = await startStub();
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
  writeFileSync(scenarioFile, JSON.stringify({ name: 'mixed', era: 'stateless', flows }));
});
afterAll(async () => {
  await stub.close();
  rmSync(folder, { recursive: true, force: true });
});

const parse = (...argv: string[]) =>
  parseLoadArgs(['--scenario', scenarioFile, '--url', 'http://127.0.0.1:1/mcp', ...argv]);
const scenarioOptions = (...argv: string[]): ScenarioOptions => {
  const parsed = parseLoadArgs(['--scenario', scenarioFile, '--url', stub.url, ...argv]);
  if (parsed.kind !== 'scenario') throw new Error('not a scenario run');
  return parsed.options;
};

describe('the command lines', () => {
  it('--emit artillery DIR: the scenario run to write, DIR right after the engine', () => {
    const parsed = parse('--rate', '5', '--amount', '10', '--emit', 'artillery', 'out/test');
    expect(parsed).toMatchObject({ kind: 'emit', folder: 'out/test', options: { amount: 10 } });
    expect(parse('--emit=artillery', 'dir')).toMatchObject({ kind: 'emit', folder: 'dir' });
  });

  it.each([
    [['stray'], /unexpected argument "stray"/],
    [['--emit', 'artillery', 'a', 'b'], /unexpected argument "b"/],
    [['--emit', 'k6', 'dir'], /--emit names the engine .*artillery \(got "k6"\)/],
    [['--emit', 'artillery'], /--emit artillery needs the folder/],
    [['--emit', 'artillery', 'dir', '--token', 't'], /--token is not written into a test/],
    [
      ['--emit', 'artillery', 'dir', '--header', 'Authorization: Bearer t'],
      /Authorization: …" is not written/,
    ],
    [['--emit', 'artillery', 'dir', '--json'], /--json reports a run/],
    [['--emit', 'artillery', 'dir', '--stack', 'app'], /--stack reads the endpoint's side around a run/],
    [['--from-artillery', 'out.json', '--stack', 'app'], /--stack does not go with --from-artillery/],
    [['--from-artillery', 'out.json', '--rate', '5'], /--rate does not go with --from-artillery/],
    [['--from-artillery', 'out.json', '--report', 'r.svg'], /writes an HTML page/],
    [['--from-artillery', 'out.json', '--emit', 'artillery', 'dir'], /give one/],
  ])('refuses %j', (argv, message) => {
    expect(() => parse(...argv)).toThrow(UsageError);
    expect(() => parse(...argv)).toThrow(message);
  });

  it('--from-artillery needs the scenario the test was written from', () => {
    expect(() => parseLoadArgs(['--from-artillery', 'out.json'])).toThrow(/give --scenario FILE/);
    expect(parse('--from-artillery', 'out.json', '--json', '--report', 'r.html')).toMatchObject({
      kind: 'from-artillery',
      output: 'out.json',
      url: 'http://127.0.0.1:1/mcp',
      json: true,
      report: { path: 'r.html', format: 'html' },
    });
  });
});

describe('the load model as Artillery phases', () => {
  const phases = (...argv: string[]) => {
    const parsed = parse(...argv);
    if (parsed.kind !== 'scenario') throw new Error('not a scenario run');
    return mapModel(parsed.options);
  };

  it('maps the closed model to its connections as virtual users, each a loop, and says so', () => {
    const mapped = phases('--connections', '3', '--amount', '30');
    expect(mapped.fn).toBe('mcpConnection');
    expect(mapped.phases).toEqual([{ name: 'closed model: 3 connections', duration: 1, arrivalCount: 3 }]);
    expect(mapped.notes[0]).toMatch(/no Artillery equivalent.*until the worker has started 30 flow runs/);
  });

  it('maps --rate with --amount to that many arrivals, in whole seconds', () => {
    const mapped = phases('--rate', '4', '--amount', '10', '--max-in-flight', '7');
    expect(mapped.fn).toBe('mcpFlowRun');
    expect(mapped.phases).toEqual([
      { name: '10 flow runs at 4 flow runs/s', duration: 3, arrivalCount: 10, maxVusers: 7 },
    ]);
    expect(mapped.notes.join('\n')).toMatch(/2.5 s lasts 3 s/);
  });

  it('maps phases to rates, pauses, ramps and, for a fractional rate, an arrival count', () => {
    const mapped = phases('--phases', '10x5,0x2,1-4x3,2.5x4');
    expect(mapped.phases).toEqual([
      { name: '10 flow runs/s for 5 s', duration: 5, arrivalRate: 10, maxVusers: 1000 },
      { name: '0 flow runs/s for 2 s', pause: 2 },
      { name: '1 → 4 flow runs/s over 3 s', duration: 3, arrivalRate: 1, rampTo: 4, maxVusers: 1000 },
      { name: '2.5 flow runs/s for 4 s', duration: 4, arrivalCount: 10, maxVusers: 1000 },
    ]);
    expect(mapped.notes.join('\n')).toMatch(
      /divide the rates.*\n.*whole-second steps.*\n.*starts 10 flow runs/,
    );
  });
});

/** Metrics as an Artillery worker's events carry them, then summed and summarized as Artillery's JSON holds them. */
class Collector implements ArtilleryEvents {
  counters: Record<string, number> = {};
  values: Record<string, number[]> = {};
  emit(type: 'counter' | 'histogram', name: string, value: number) {
    if (type === 'counter') this.counters[name] = (this.counters[name] ?? 0) + value;
    else (this.values[name] ??= []).push(value);
  }
  output(): { aggregate: ArtilleryMetrics; intermediate: ArtilleryMetrics[] } {
    const rank = (sorted: number[], p: number) =>
      sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
    const summaries = Object.fromEntries(
      Object.entries(this.values).map(([name, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
        const p = (n: number) => rank(sorted, n);
        return [
          name,
          { count: sorted.length, mean, max: sorted.at(-1)!, p50: p(50), p90: p(90), p99: p(99) },
        ];
      }),
    );
    const period = { period: 0, counters: this.counters, summaries, firstCounterAt: 0, lastCounterAt: 2000 };
    return { aggregate: period, intermediate: [period] };
  }
}

const stepCounts = (report: {
  flows: {
    name: string;
    steps: { step: string; count: number; requests: number; failures: number }[];
    runs: { count: number };
  }[];
}) =>
  report.flows.map((flow) => [
    flow.name,
    flow.runs.count,
    flow.steps.map((s) => [s.step, s.count, s.requests, s.failures]),
  ]);

describe('the emitted processor, driven as Artillery drives it', () => {
  it('counts every step as npm run load -- --scenario does, and the report reads it back', async () => {
    const options = scenarioOptions('--connections', '2', '--amount', '9');
    const emitted = await emitArtillery(options, join(folder, 'closed'));
    expect(readFileSync(emitted.script, 'utf8')).toContain('      - function: "mcpConnection"');
    const processor = await import(pathToFileURL(emitted.files[2]!).href);
    const events = new Collector();
    const context = () => ({ vars: { $scenarioFile: emitted.script, target: stub.url } });
    // Two virtual users, each one connection of the worker's closed loop.
    await Promise.all([
      processor.mcpConnection(context(), events),
      processor.mcpConnection(context(), events),
    ]);
    expect(events.counters['mcp.listing.1 initialize.ok']).toBe(6);
    expect(events.counters['mcp.failing.1 bad call.rpc-error']).toBe(3);

    const report = artilleryReport(events.output(), options.scenario, stub.url);
    const builtIn = await runScenario(options);
    expect(stepCounts(report)).toEqual(stepCounts(builtIn));
    expect(report).toMatchObject({ flowRuns: 9, requests: builtIn.requests, passed: false });
    expect(report.steps.failures).toBe(3);
    expect(report.flows[0]!.steps[2]!.latencyMs.p50).toBeGreaterThan(0);
    expect(formatArtilleryReport(report)).toMatch(/\n {4}1\. bad call +3 +0 +0 +3 /);
    const page = renderArtilleryHtml(report).replaceAll('\n', ' ');
    expect(page).toContain('<span class="verdict fail" data-metric="verdict">FAIL</span>');
    expect(page).toMatch(
      /<tr data-flow="listing" data-step="initialize">.*?data-metric="requests" data-value="12"/,
    );
    expect(page).toContain('<h2>Not available from Artillery</h2>');
  });

  it('fails every virtual user of a worker whose preflight failed, and says why', async () => {
    const emitted = await emitArtillery(
      scenarioOptions('--rate', '2', '--amount', '2'),
      join(folder, 'open'),
    );
    const processor = await import(pathToFileURL(emitted.files[2]!).href);
    const events = new Collector();
    const context = { vars: { $scenarioFile: emitted.script, target: 'http://127.0.0.1:9/mcp' } };
    await expect(processor.mcpFlowRun(context, events)).rejects.toThrow(
      /^preflight failed: tools\/list failed/,
    );
    await expect(processor.mcpFlowRun(context, events)).rejects.toThrow(/^preflight failed/);
    expect(events.counters['mcp.preflight.failed']).toBe(2);
    const output = events.output();
    output.aggregate.counters!['vusers.failed'] = 2;
    expect(artilleryReport(output, scenarioOptions().scenario, stub.url)).toMatchObject({
      flowRuns: 0,
      passed: false,
    });
  });
});
