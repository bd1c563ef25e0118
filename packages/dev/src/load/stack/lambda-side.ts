/**
 * The Lambda side of a run, read after it from CloudWatch: the function's AWS/Lambda metrics over the run's window
 * (GetMetricData: invocations, errors, throttles, the most concurrent executions, duration percentiles), and its
 * cold starts' init durations from the REPORT lines of its log (Logs Insights: they are no CloudWatch metric).
 * CloudWatch takes a minute or two to count an invocation, so the read waits, within a bound, until it has counted
 * the invocations the run saw answered; each wait is bounded, and what did not arrive in time is said.
 */
import type { GetMetricDataCommandOutput, MetricDataQuery } from '@aws-sdk/client-cloudwatch';
import type { GetQueryResultsCommandOutput, StartQueryCommandOutput } from '@aws-sdk/client-cloudwatch-logs';
import { AwsReadError, type Aws } from './aws.ts';

/** The run's window on the wall clock. */
export interface RunWindow {
  start: Date;
  end: Date;
}

/** The AWS/Lambda metrics of the window, as one period. */
export interface LambdaMetrics {
  invocations: number;
  errors: number;
  throttles: number;
  /** Null when CloudWatch holds no data point (no invocation in the window). */
  maxConcurrentExecutions: number | null;
  durationMs: { p50: number | null; p90: number | null; p99: number | null; max: number | null };
}

/** The cold starts in the run's window: how many, and their init durations. */
export interface InitDurations {
  count: number;
  p50Ms: number | null;
  maxMs: number | null;
}

/** What the Lambda side shows: the window read, and what could be read of it. */
export interface LambdaSide {
  /** The metrics' window: the run's widened to whole minutes (CloudWatch's finest for Lambda), one period long. */
  window: { start: string; end: string; periodS: number };
  metrics?: LambdaMetrics;
  initDurations?: InitDurations;
  /** What is missing or may be incomplete, and why. */
  notes: string[];
}

/**
 * How the read waits: the clock and the pause (tests pass their own), a line for the person waiting, and the signal
 * of the person skipping the wait (Ctrl-C): the report then has what CloudWatch had, and says so.
 */
export interface Waiting {
  now(): number;
  sleep(ms: number): Promise<void>;
  onWait?(message: string): void;
  skipped?: AbortSignal;
}

/** How long the metrics may take to arrive, and how often to look. */
const METRICS_WAIT_MS = 180_000;
const METRICS_POLL_MS = 15_000;
/** How long a Logs Insights query may run, and how often to look. */
const QUERY_WAIT_MS = 30_000;
const QUERY_POLL_MS = 1_000;
const MINUTE_MS = 60_000;

/** The run's window widened to whole minutes: at least one, all of it one period. */
export function metricWindow(run: RunWindow): { start: Date; end: Date; periodS: number } {
  const start = Math.floor(run.start.getTime() / MINUTE_MS) * MINUTE_MS;
  const end = Math.max(start + MINUTE_MS, Math.ceil(run.end.getTime() / MINUTE_MS) * MINUTE_MS);
  return { start: new Date(start), end: new Date(end), periodS: (end - start) / 1000 };
}

/** The queries: each metric of the function over one period, under an id the answer names. */
function queries(functionName: string, periodS: number): MetricDataQuery[] {
  const stat = (id: string, name: string, statistic: string): MetricDataQuery => ({
    Id: id,
    MetricStat: {
      Metric: {
        Namespace: 'AWS/Lambda',
        MetricName: name,
        Dimensions: [{ Name: 'FunctionName', Value: functionName }],
      },
      Period: periodS,
      Stat: statistic,
    },
    ReturnData: true,
  });
  return [
    stat('invocations', 'Invocations', 'Sum'),
    stat('errors', 'Errors', 'Sum'),
    stat('throttles', 'Throttles', 'Sum'),
    stat('concurrency', 'ConcurrentExecutions', 'Maximum'),
    stat('p50', 'Duration', 'p50'),
    stat('p90', 'Duration', 'p90'),
    stat('p99', 'Duration', 'p99'),
    stat('max', 'Duration', 'Maximum'),
  ];
}

const round = (n: number) => Math.round(n * 100) / 100;

/** One read of the metrics over the window. */
async function readMetrics(
  aws: Aws,
  functionName: string,
  window: { start: Date; end: Date; periodS: number },
): Promise<LambdaMetrics> {
  const values = new Map<string, number[]>();
  let token: string | undefined;
  do {
    const answer = await aws.read<GetMetricDataCommandOutput>(
      'cloudWatch',
      new aws.sdk.cloudWatch.GetMetricDataCommand({
        MetricDataQueries: queries(functionName, window.periodS),
        StartTime: window.start,
        EndTime: window.end,
        ...(token ? { NextToken: token } : {}),
      }),
      'cloudwatch:GetMetricData',
    );
    for (const result of answer.MetricDataResults ?? [])
      values.set(result.Id!, [...(values.get(result.Id!) ?? []), ...(result.Values ?? [])]);
    token = answer.NextToken;
  } while (token);
  const sum = (id: string) => (values.get(id) ?? []).reduce((total, v) => total + v, 0);
  const most = (id: string) => {
    const all = values.get(id) ?? [];
    return all.length ? round(Math.max(...all)) : null;
  };
  return {
    invocations: sum('invocations'),
    errors: sum('errors'),
    throttles: sum('throttles'),
    maxConcurrentExecutions: most('concurrency'),
    durationMs: { p50: most('p50'), p90: most('p90'), p99: most('p99'), max: most('max') },
  };
}

/**
 * The metrics once CloudWatch has counted `answered` invocations (the MCP answers the run got), looking again
 * until METRICS_WAIT_MS has passed; then what it has, with a note that more may be arriving.
 */
async function settledMetrics(
  aws: Aws,
  functionName: string,
  window: { start: Date; end: Date; periodS: number },
  answered: number,
  waiting: Waiting,
): Promise<{ metrics: LambdaMetrics; note?: string }> {
  const deadline = waiting.now() + METRICS_WAIT_MS;
  for (;;) {
    const metrics = await readMetrics(aws, functionName, window);
    if (metrics.invocations >= answered) return { metrics };
    if (waiting.skipped?.aborted)
      return {
        metrics,
        note:
          `the wait for CloudWatch was skipped with ${metrics.invocations} invocations counted of the run's ` +
          `${answered} MCP answers: its figures may still be arriving`,
      };
    if (waiting.now() + METRICS_POLL_MS > deadline)
      return {
        metrics,
        note:
          `CloudWatch had counted ${metrics.invocations} invocations of the ${answered} MCP answers the run got ` +
          `after ${METRICS_WAIT_MS / 1000} s: its figures may still be arriving`,
      };
    waiting.onWait?.(
      `waiting for CloudWatch to count the run's invocations (${metrics.invocations} of ${answered} so far)…`,
    );
    await waiting.sleep(METRICS_POLL_MS);
  }
}

/** The Logs Insights query of the cold starts: Lambda's JSON `platform.report` records, or text REPORT lines. */
export const INIT_QUERY =
  'filter type = "platform.report" or @type = "REPORT"' +
  ' | fields coalesce(record.metrics.initDurationMs, @initDuration) as initMs' +
  ' | filter ispresent(initMs)' +
  ' | stats count(*) as coldStarts, pct(initMs, 50) as p50, max(initMs) as max';

const numberOr = (text: string | undefined) =>
  text === undefined || text === '' || !Number.isFinite(Number(text)) ? null : round(Number(text));

/** The cold starts of the run's window, or why they are not available (the query's bounded wait included). */
async function readInitDurations(
  aws: Aws,
  logGroupName: string,
  run: RunWindow,
  waiting: Waiting,
): Promise<InitDurations> {
  const { logs } = aws.sdk;
  const started = await aws.read<StartQueryCommandOutput>(
    'logs',
    new logs.StartQueryCommand({
      logGroupName,
      startTime: Math.floor(run.start.getTime() / 1000),
      endTime: Math.ceil(run.end.getTime() / 1000),
      queryString: INIT_QUERY,
    }),
    'logs:StartQuery',
  );
  const queryId = started.queryId!;
  const deadline = waiting.now() + QUERY_WAIT_MS;
  for (;;) {
    const answer = await aws.read<GetQueryResultsCommandOutput>(
      'logs',
      new logs.GetQueryResultsCommand({ queryId }),
      'logs:GetQueryResults',
    );
    if (answer.status === 'Complete') {
      const row = Object.fromEntries((answer.results?.[0] ?? []).map((f) => [f.field, f.value]));
      return { count: numberOr(row.coldStarts) ?? 0, p50Ms: numberOr(row.p50), maxMs: numberOr(row.max) };
    }
    if (answer.status !== 'Running' && answer.status !== 'Scheduled')
      throw new AwsReadError(`the Logs Insights query ended ${answer.status ?? 'without a status'}`);
    if (waiting.skipped?.aborted || waiting.now() + QUERY_POLL_MS > deadline) {
      // Best effort: a query left running only costs its scan, and the report says what happened either way.
      await aws.read('logs', new logs.StopQueryCommand({ queryId }), 'logs:StopQuery').catch(() => undefined);
      throw new AwsReadError(
        waiting.skipped?.aborted
          ? 'the wait for the Logs Insights query was skipped'
          : `the Logs Insights query did not finish within ${QUERY_WAIT_MS / 1000} s`,
      );
    }
    await waiting.sleep(QUERY_POLL_MS);
  }
}

/** A note for a part that could not be read, or rethrows what is not a read's failure. */
function unavailable(what: string, error: unknown): string {
  if (!(error instanceof AwsReadError)) throw error;
  return `${what} not available: ${error.message}`;
}

/**
 * Reads the Lambda side of a run: its metrics (once CloudWatch has counted the `answered` invocations, within
 * METRICS_WAIT_MS) and, with a log group, its cold starts; a part that cannot be read becomes a note.
 */
export async function readLambdaSide(
  aws: Aws,
  target: { functionName: string; logGroupName?: string },
  run: RunWindow,
  answered: number,
  waiting: Waiting,
): Promise<LambdaSide> {
  const window = metricWindow(run);
  const side: LambdaSide = {
    window: { start: window.start.toISOString(), end: window.end.toISOString(), periodS: window.periodS },
    notes: [],
  };
  try {
    const { metrics, note } = await settledMetrics(aws, target.functionName, window, answered, waiting);
    side.metrics = metrics;
    if (note) side.notes.push(note);
  } catch (error) {
    side.notes.push(unavailable('metrics', error));
  }
  if (!target.logGroupName) {
    side.notes.push('init durations not available: the stack names no log group (McpLogGroupName)');
    return side;
  }
  try {
    side.initDurations = await readInitDurations(aws, target.logGroupName, run, waiting);
  } catch (error) {
    side.notes.push(unavailable('init durations', error));
  }
  return side;
}
