import { describe, expect, it } from 'vitest';
import { formatBench } from '../bench/format.ts';
import type { BenchResults, TargetCheck } from '../bench/results.ts';
import { runParts } from '../bench/run-parts.ts';

/** What a run says when a part fails, and what a quick run says of the goals it cannot judge. */

const TIMED: TargetCheck = {
  name: 'cold start vs SDK 2.x',
  goal: '≥ 3x faster',
  measured: '2.1x',
  met: false,
};
const SIZED: TargetCheck = {
  name: 'MCP function bundle (minified)',
  goal: '< 150.0 KB',
  measured: '151.0 KB',
  met: false,
  exact: true,
};

function results(quick: boolean, targets: TargetCheck[] = [TIMED, SIZED]): BenchResults {
  return {
    date: '2026-11-22T00:00:00.000Z',
    machine: {
      os: 'linux',
      cpu: 'test cpu',
      cores: 2,
      memoryGiB: 8,
      driverNode: 'v22',
      functionNode: 'v22',
      loadStart: 0.1,
      loadEnd: 0.2,
    },
    settings: {
      coldStartRuns: 3,
      warmRuns: 1,
      warmDurationMs: 1000,
      httpConnections: 16,
      httpDurationS: 1,
      httpRounds: 1,
      soakCalls: 10_000,
      streamCalls: 5,
      taskPolls: 200,
      viewPaintRuns: 3,
      execArgv: [],
      ...(quick ? { quick } : {}),
    },
    bundles: [],
    targets,
    durationS: 60,
  };
}

const resultOf = (text: string, name: string) =>
  text
    .split('\n')
    .find((line) => line.trimStart().startsWith(name))
    ?.trim()
    .split(/ {2,}/)
    .at(-1);

describe('the targets of a quick run', () => {
  it('a timed target missed on a quick run is not comparable, and a note says why; an exact one is MISSED', () => {
    const text = formatBench(results(true));
    expect(resultOf(text, TIMED.name)).toBe('not comparable (--quick)');
    expect(resultOf(text, SIZED.name)).toBe('MISSED');
    expect(text).toMatch(
      /not comparable \(--quick\): a quick run measures times, rates and memory on too few samples/,
    );
  });

  it('a full run judges every target, and a quick run that misses nothing adds no note', () => {
    const full = formatBench(results(false));
    expect(resultOf(full, TIMED.name)).toBe('MISSED');
    expect(full).not.toContain('not comparable');
    const met = formatBench(results(true, [{ ...TIMED, met: true }]));
    expect(resultOf(met, TIMED.name)).toBe('met');
    expect(met).not.toContain('not comparable');
  });
});

describe('a part that fails', () => {
  it('ends there with its message, the other parts run, and the report lists it last', async () => {
    const run = results(false, []);
    const said: string[] = [];
    const ran: string[] = [];
    await runParts(
      {
        first: async () => void ran.push('first'),
        views: async () => {
          throw new Error('server child fn-ours was killed by SIGKILL (waiting for "stats")');
        },
        skipped: async () => void ran.push('skipped'),
        last: async () => void ran.push('last'),
      },
      run,
      { progress: (message: string) => said.push(message) },
      new Set(['skipped']),
    );
    expect(ran).toEqual(['first', 'last']);
    expect(run.failedParts).toEqual([
      { part: 'views', message: 'server child fn-ours was killed by SIGKILL (waiting for "stats")' },
    ]);
    expect(said).toEqual([
      'part views failed, going on with the others: server child fn-ours was killed by SIGKILL (waiting for "stats")',
    ]);
    const lines = formatBench(run).split('\n');
    expect(lines.slice(-2)).toEqual([
      'Parts that failed (1; the others ran, and the exit status is 1)',
      '   views: server child fn-ours was killed by SIGKILL (waiting for "stats")',
    ]);
  });

  it("a part's message is led by the deaths of child processes it does not name, the likely cause", async () => {
    const run = results(false, []);
    const deaths = [[], ['server child fn-ours was killed by SIGKILL']];
    await runParts(
      {
        views: async () => {
          throw new Error('fetch failed');
        },
      },
      run,
      { progress: () => undefined, deaths: () => deaths.shift() ?? [] },
      new Set(),
    );
    expect(run.failedParts).toEqual([
      { part: 'views', message: 'server child fn-ours was killed by SIGKILL; then fetch failed' },
    ]);
  });

  it('a run where every part went through lists no failed parts', () => {
    expect(formatBench(results(false, []))).not.toContain('Parts that failed');
  });
});
