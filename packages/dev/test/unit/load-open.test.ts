import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { parseLoadArgs, UsageError, type LoadOptions } from '../../src/load/options.ts';
import { renderHtmlReport } from '../../src/load/report-html.ts';
import { renderSvgReport } from '../../src/load/report-svg.ts';
import { formatReport } from '../../src/load/report-text.ts';
import { summarize } from '../../src/load/run.ts';
import { RunRecorder } from '../../src/load/samples.ts';
import { describePhases, formatPhases, Schedule, type Phase } from '../../src/load/schedule.ts';

/**
 * The open model of the load command, without a network: the schedule of intended starts, the options that ask for
 * it, and the reports of an open run. The runs themselves are in ../integration/load-open.test.ts.
 */

const URL_ARG = ['--url', 'http://127.0.0.1:3000/mcp'];

const dues = (schedule: Schedule) => Array.from({ length: schedule.count }, (_, i) => schedule.dueMs(i));

describe('the schedule of an open run', () => {
  it('holds rate × seconds requests, evenly spaced from 0', () => {
    const schedule = new Schedule([{ rate: 50, durationS: 10 }]);
    expect(schedule.count).toBe(500);
    expect(schedule.offeredRate).toBe(50);
    expect(dues(schedule).every((due, i) => Math.abs(due - i * 20) < 1e-6)).toBe(true);
    expect(schedule.dueMs(499)).toBeLessThan(10_000);
  });

  it('cuts the schedule at a limit (--amount)', () => {
    expect(new Schedule([{ rate: 50, durationS: 10 }], 120).count).toBe(120);
  });

  it('ramps linearly: a quarter of a ramp from 0 in its first half, due times rising', () => {
    const schedule = new Schedule([{ rate: 0, rampTo: 100, durationS: 2 }]);
    expect(schedule.count).toBe(100);
    const times = dues(schedule);
    expect(times.filter((t) => t < 1000)).toHaveLength(25);
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
    expect(times.at(-1)!).toBeLessThan(2000);
    // The gaps shrink as the rate grows: the rate at time t is 50·t per second.
    expect(times[99]! - times[98]!).toBeLessThan(times[2]! - times[1]!);
  });

  it('ramps down to 0 and ends inside the phase', () => {
    const schedule = new Schedule([{ rate: 100, rampTo: 0, durationS: 2 }]);
    expect(schedule.count).toBe(100);
    expect(dues(schedule).filter((t) => t < 1000)).toHaveLength(75);
    expect(dues(schedule).every((t) => t >= 0 && t <= 2000)).toBe(true);
  });

  it('runs phases one after another, a pause at rate 0 included', () => {
    const schedule = new Schedule([
      { rate: 10, durationS: 5 },
      { rate: 0, durationS: 2 },
      { rate: 50, durationS: 10 },
    ]);
    expect(schedule.count).toBe(550);
    expect(schedule.durationS).toBe(17);
    expect(schedule.dueMs(49)).toBeCloseTo(4900, 6);
    expect(schedule.dueMs(50)).toBeCloseTo(7000, 6);
    expect(schedule.dueMs(51)).toBeCloseTo(7020, 6);
  });

  it('carries a fraction of a request across phases', () => {
    const schedule = new Schedule([
      { rate: 2.5, durationS: 1 },
      { rate: 1, durationS: 2 },
    ]);
    // 2.5 requests in the first second (at 0, 0.4 and 0.8 s), then the half carried over: the next at 1.5 s.
    expect(schedule.count).toBe(5);
    expect(dues(schedule).map((t) => Math.round(t))).toEqual([0, 400, 800, 1500, 2500]);
  });

  it('writes a phase list as the command line and the reports do', () => {
    const phases: Phase[] = [
      { rate: 10, rampTo: 100, durationS: 30 },
      { rate: 100, durationS: 60 },
    ];
    expect(formatPhases(phases)).toBe('10-100x30,100x60');
    expect(describePhases(phases)).toBe('10 → 100 req/s over 30 s, then 100 req/s for 60 s');
  });
});

describe('the open model options', () => {
  it('reads --rate as one steady phase over --duration, with 1000 requests in flight at most', () => {
    expect(parseLoadArgs([...URL_ARG, '--rate', '50'])).toMatchObject({
      kind: 'run',
      notices: [],
      options: { durationS: 10, open: { phases: [{ rate: 50, durationS: 10 }], maxInFlight: 1000 } },
    });
  });

  it('reads --ramp-to and --max-in-flight', () => {
    const parsed = parseLoadArgs([
      ...URL_ARG,
      ...['--rate', '0', '--ramp-to', '200', '--duration', '60', '--max-in-flight', '50'],
    ]);
    expect(parsed).toMatchObject({
      options: { open: { phases: [{ rate: 0, rampTo: 200, durationS: 60 }], maxInFlight: 50 } },
    });
  });

  it('reads --rate with --amount as that many requests at that rate', () => {
    expect(parseLoadArgs([...URL_ARG, '--rate', '40', '--amount', '100'])).toMatchObject({
      options: { amount: 100, open: { phases: [{ rate: 40, durationS: 2.5 }] } },
    });
  });

  it('reads --phases, ramps and fractions included', () => {
    expect(parseLoadArgs([...URL_ARG, '--phases', '10x5, 10-100x30,0.5x4'])).toMatchObject({
      options: {
        durationS: 39,
        open: {
          phases: [
            { rate: 10, durationS: 5 },
            { rate: 10, rampTo: 100, durationS: 30 },
            { rate: 0.5, durationS: 4 },
          ],
        },
      },
    });
  });

  it.each([
    [
      'both models',
      ['--rate', '5', '--connections', '4'],
      /--connections \(the closed model\) and --rate or --phases \(the open model\) pick different models/,
    ],
    [
      'phases beside connections',
      ['--phases', '5x2', '--connections', '4'],
      /pick different models: give one/,
    ],
    ['--ramp-to without a rate', ['--ramp-to', '5'], /--ramp-to ramps from --rate: give --rate with it/],
    [
      '--max-in-flight in the closed model',
      ['--max-in-flight', '5'],
      /--max-in-flight is an option of the open/,
    ],
    ['a rate of nothing', ['--rate', '0'], /--rate 0 sends nothing/],
    ['a negative rate', ['--rate=-1'], /--rate must be a number from 0 to 100000/],
    [
      'a ramp over an amount',
      ['--rate', '5', '--ramp-to', '9', '--amount', '50'],
      /--ramp-to ramps over --duration/,
    ],
    ['an amount past an hour', ['--rate', '0.1', '--amount', '1000'], /lasts 10000 s, more than 3600/],
    [
      'phases and a rate',
      ['--phases', '5x2', '--rate', '5'],
      /--phases holds the rates .*: leave out --rate/,
    ],
    ['phases and a duration', ['--phases', '5x2', '--duration', '5'], /leave out --duration/],
    ['phases and an amount', ['--phases', '5x2', '--amount', '5'], /leave out --amount/],
    ['a phase without seconds', ['--phases', '5x2,10'], /each phase is RATExSECONDS .*\(got "10"\)/],
    ['a phase of no time', ['--phases', '5x0'], /seconds above 0/],
    ['phases past an hour', ['--phases', '5x3000,5x3000'], /--phases last 6000 s in all/],
    ['a phase rate past the cap', ['--phases', '5-200000x10'], /a rate is at most 100000/],
    ['a schedule with no request', ['--phases', '0x10'], /the schedule holds no request/],
    ['zero in flight', ['--rate', '5', '--max-in-flight', '0'], /--max-in-flight must be an integer from 1/],
  ])('rejects %s', (_name, argv, message) => {
    expect(() => parseLoadArgs([...URL_ARG, ...argv])).toThrow(UsageError);
    expect(() => parseLoadArgs([...URL_ARG, ...argv])).toThrow(message);
  });
});

/** An open run of 100 scheduled requests at 50 req/s: 90 sent and answered ok, 10 not sent (the cap). */
function openRun(notSent = 10) {
  const options = parseLoadArgs([...URL_ARG, '--rate', '50', '--duration', '2', '--max-in-flight', '8']);
  if (options.kind !== 'run') throw new Error('not a run');
  const recorder = new RunRecorder();
  const sent = 100 - notSent;
  for (let i = 0; i < sent; i++) recorder.record(i * 20 + 300, 'ok', 300 + (i % 10));
  const plan = options.options.open!;
  const report = summarize(recorder, {
    url: options.options.url,
    tool: 'ping',
    era: 'handshake',
    protocolVersion: '2025-11-25',
    open: {
      plan,
      schedule: new Schedule(plan.phases),
      arrivals: { scheduled: 100, sent, notSent, peakInFlight: 8, maxSendLagMs: 1.5 },
    },
  });
  return { options: options.options as LoadOptions, report, recorder };
}

describe('the report of an open run', () => {
  it('says which model ran, and shows offered against achieved in the JSON report', () => {
    const { report } = openRun();
    expect(report).toMatchObject({
      model: 'open',
      open: {
        planned: 100,
        scheduleS: 2,
        offeredRate: 50,
        scheduled: 100,
        sent: 90,
        notSent: 10,
        sentRate: 45,
        answered: 90,
        peakInFlight: 8,
      },
      requests: 90,
      passed: false,
    });
    expect(report.connections).toBeUndefined();
    // Answers over the time to the last one: 90 answers, the last at 2.08 s.
    expect(report.open!.achievedRate).toBe(Math.round((90 / 2.08) * 10) / 10);
    expect(report.open!.achievedRate).toBe(report.requestsPerSecond);
  });

  it('passes when every scheduled request was sent and answered', () => {
    expect(openRun(0).report.passed).toBe(true);
  });

  it('prints the model, the arrivals and the not-sent requests in the text report', () => {
    const text = formatReport(openRun().report);
    expect(text).toContain('open model: 50 req/s for 2 s, at most 8 in flight');
    expect(text).toContain('100 scheduled (50 req/s offered), 90 sent (45 req/s), 10 not sent');
    expect(text).toContain('not sent      10 came due while 8 waited (--max-in-flight)');
    expect(text).toMatch(/90 answered in 2\.08 s, 43\.3 req\/s achieved/);
    expect(text).toContain("(from each request's intended start)");
    expect(text).toContain('FAIL: some requests failed or were not sent');
  });

  it('shows offered against achieved in the HTML page and counts the not-sent requests as failed', () => {
    const html = renderHtmlReport(openRun());
    expect(() => parse(html)).not.toThrow();
    for (const [metric, value] of [
      ['offered-rate', 50],
      ['scheduled', 100],
      ['sent', 90],
      ['not-sent', 10],
      ['requests', 90],
      ['rate', 43.3],
      ['failures', 10],
    ] as const)
      expect(html).toContain(`data-metric="${metric}" data-value="${value}"`);
    expect(html).toContain('open model: 50 req/s for 2 s, at most 8 in flight');
    expect(html).toContain('the schedule: 100 requests over 2 s');
    expect(html).not.toContain('connections');
  });

  it('shows the arrivals in the SVG image', () => {
    const svg = renderSvgReport(openRun());
    expect(svg).toContain(
      'offered 50 req/s · 100 scheduled · 90 sent · 10 not sent · 90 answered · achieved 43.3 req/s',
    );
  });

  it('still says the closed model and its connections for a closed run', () => {
    const report = summarize(new RunRecorder(), {
      url: 'http://127.0.0.1:3000/mcp',
      tool: 'ping',
      era: 'handshake',
      protocolVersion: '2025-11-25',
      connections: 4,
    });
    expect(report).toMatchObject({ model: 'closed', connections: 4 });
    expect(report.open).toBeUndefined();
    expect(formatReport(report)).toContain('closed model: 4 connections');
  });
});
