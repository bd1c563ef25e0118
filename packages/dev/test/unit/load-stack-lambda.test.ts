import { describe, expect, it } from 'vitest';
import { INIT_QUERY, metricWindow } from '../../src/load/stack/lambda-side.ts';
import { accessDenied, FUNCTION } from './aws-stub.ts';
import { cloud, fakeWaiting, RUN, stackSide } from './stack-cloud.ts';

/**
 * The Lambda side of `npm run load -- --stack NAME`, read after the run from stand-ins of CloudWatch and Logs
 * Insights: the metric read mapped into the report, the wait for CloudWatch to count the run, the cold starts, and
 * each way a part can be missing (a permission, a query that does not finish). No network, no account.
 */

describe('the Lambda side of a run', () => {
  it('maps the metrics of the run’s window, widened to whole minutes, and the cold starts into the report', async () => {
    const { clients, calls } = cloud();
    const report = await stackSide(clients);
    expect(report.lambda).toEqual({
      window: { start: '2025-06-01T12:00:00.000Z', end: '2025-06-01T12:02:00.000Z', periodS: 120 },
      metrics: {
        invocations: 500,
        errors: 2,
        throttles: 0,
        maxConcurrentExecutions: 12,
        durationMs: { p50: 35.12, p90: 61, p99: 120.5, max: 300 },
      },
      initDurations: { count: 3, p50Ms: 412.5, maxMs: 530.13 },
      notes: [],
    });
    const query = calls.find((c) => c.name === 'cloudWatch.GetMetricDataCommand')!.input;
    expect(query).toMatchObject({
      StartTime: new Date('2025-06-01T12:00:00Z'),
      EndTime: new Date('2025-06-01T12:02:00Z'),
    });
    const stats = query.MetricDataQueries.map((q: any) => [
      q.Id,
      q.MetricStat.Metric.MetricName,
      q.MetricStat.Stat,
      q.MetricStat.Period,
    ]);
    expect(stats).toEqual([
      ['invocations', 'Invocations', 'Sum', 120],
      ['errors', 'Errors', 'Sum', 120],
      ['throttles', 'Throttles', 'Sum', 120],
      ['concurrency', 'ConcurrentExecutions', 'Maximum', 120],
      ['p50', 'Duration', 'p50', 120],
      ['p90', 'Duration', 'p90', 120],
      ['p99', 'Duration', 'p99', 120],
      ['max', 'Duration', 'Maximum', 120],
    ]);
    expect(query.MetricDataQueries[0].MetricStat.Metric).toMatchObject({
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: FUNCTION }],
    });
    // The cold starts of the run's own seconds, from the function's log group.
    expect(calls.find((c) => c.name === 'logs.StartQueryCommand')!.input).toEqual({
      logGroupName: `/aws/lambda/${FUNCTION}`,
      startTime: Math.floor(RUN.start.getTime() / 1000),
      endTime: Math.ceil(RUN.end.getTime() / 1000),
      queryString: INIT_QUERY,
    });
  });

  it('waits for CloudWatch to count the run’s invocations, and says so', async () => {
    const counted = [120, 480, 500];
    const { clients } = cloud({
      'cloudWatch.GetMetricDataCommand': () => ({
        MetricDataResults: [{ Id: 'invocations', Values: [counted.shift()!] }],
      }),
    });
    const waiting = fakeWaiting();
    const report = await stackSide(clients, { waiting });
    expect(report.lambda!.metrics!.invocations).toBe(500);
    expect(report.lambda!.notes).toEqual([]);
    expect(waiting.slept).toEqual([15_000, 15_000]);
    expect(waiting.said[0]).toBe(
      "waiting for CloudWatch to count the run's invocations (120 of 500 so far)…",
    );
  });

  it('gives up waiting after three minutes with what it has, saying the figures may still be arriving', async () => {
    const { clients } = cloud({
      'cloudWatch.GetMetricDataCommand': () => ({
        MetricDataResults: [{ Id: 'invocations', Values: [480] }],
      }),
    });
    const waiting = fakeWaiting();
    const report = await stackSide(clients, { waiting });
    expect(waiting.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(180_000);
    expect(report.lambda!.metrics).toMatchObject({ invocations: 480, maxConcurrentExecutions: null });
    expect(report.lambda!.notes).toEqual([
      'CloudWatch had counted 480 invocations of the 500 MCP answers the run got after 180 s: its figures may ' +
        'still be arriving',
    ]);
  });

  it('stops waiting when the person skips the wait (Ctrl-C), and the report still comes with what there was', async () => {
    const { clients } = cloud({
      'cloudWatch.GetMetricDataCommand': () => ({
        MetricDataResults: [{ Id: 'invocations', Values: [120] }],
      }),
      'logs.GetQueryResultsCommand': () => ({ status: 'Running' }),
    });
    const skip = new AbortController();
    const waiting = { ...fakeWaiting(), skipped: skip.signal };
    const sleep = waiting.sleep;
    // The person presses Ctrl-C during the first pause.
    waiting.sleep = async (ms) => {
      await sleep(ms);
      skip.abort();
    };
    const report = await stackSide(clients, { waiting });
    expect(waiting.slept).toEqual([15_000]);
    expect(report.lambda!.metrics!.invocations).toBe(120);
    expect(report.lambda!.notes).toEqual([
      "the wait for CloudWatch was skipped with 120 invocations counted of the run's 500 MCP answers: its " +
        'figures may still be arriving',
      expect.stringContaining('the wait for the Logs Insights query was skipped'),
    ]);
  });

  it('names the permission GetMetricData needs, and still reads the cold starts', async () => {
    const { clients } = cloud({
      'cloudWatch.GetMetricDataCommand': () => accessDenied('cloudwatch:GetMetricData'),
    });
    const report = await stackSide(clients);
    expect(report.lambda!.metrics).toBeUndefined();
    expect(report.lambda!.initDurations).toEqual({ count: 3, p50Ms: 412.5, maxMs: 530.13 });
    expect(report.lambda!.notes).toEqual([
      'metrics not available: needs cloudwatch:GetMetricData (AccessDenied)',
    ]);
  });

  it('stops a Logs Insights query that does not finish within 30 s, and says the init durations are not available', async () => {
    const { clients, calls } = cloud({
      'logs.GetQueryResultsCommand': () => ({ status: 'Running' }),
      'logs.StopQueryCommand': () => ({ success: true }),
    });
    const waiting = fakeWaiting();
    const report = await stackSide(clients, { waiting });
    expect(report.lambda!.initDurations).toBeUndefined();
    expect(report.lambda!.notes).toEqual([
      'init durations not available: the Logs Insights query did not finish within 30 s',
    ]);
    expect(calls.filter((c) => c.name === 'logs.StopQueryCommand').map((c) => c.input)).toEqual([
      { queryId: 'q-1' },
    ]);
    expect(waiting.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(30_000);
    // The metrics were read all the same.
    expect(report.lambda!.metrics!.invocations).toBe(500);
  });

  it('reports no cold start as zero, and a failed query as not available', async () => {
    const none = cloud({ 'logs.GetQueryResultsCommand': () => ({ status: 'Complete', results: [] }) });
    expect((await stackSide(none.clients)).lambda!.initDurations).toEqual({
      count: 0,
      p50Ms: null,
      maxMs: null,
    });
    const failed = cloud({ 'logs.GetQueryResultsCommand': () => ({ status: 'Failed' }) });
    expect((await stackSide(failed.clients)).lambda!.notes).toEqual([
      'init durations not available: the Logs Insights query ended Failed',
    ]);
  });

  it('takes at least one whole minute, the finest period of Lambda’s metrics', () => {
    const instant = new Date('2025-06-01T12:00:00Z');
    expect(metricWindow({ start: instant, end: instant })).toMatchObject({ periodS: 60 });
  });
});
