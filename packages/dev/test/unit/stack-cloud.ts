/**
 * A deployed stack of this template as the stand-in clients answer for it (aws-stub.ts): its HTTP API throttles at
 * 50 req/s, its function has no reservation, CloudWatch holds the figures of a 500-request run, and Logs Insights
 * three cold starts. A test overrides any answer by name.
 */
import type { Waiting } from '../../src/load/stack/lambda-side.ts';
import { StackSide } from '../../src/load/stack/side.ts';
import { HTTP_RESOURCES, outputs, stubClients } from './aws-stub.ts';

const STACK_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/live/mcp';
/** A run from 12:00:20 to 12:01:35 UTC: the metrics' window is 12:00 to 12:02, one 120 s period. */
export const RUN = {
  start: new Date('2025-06-01T12:00:20.500Z'),
  end: new Date('2025-06-01T12:01:35.200Z'),
};

const METRICS: Record<string, number[]> = {
  invocations: [500],
  errors: [2],
  throttles: [0],
  concurrency: [12],
  p50: [35.123],
  p90: [61],
  p99: [120.5],
  max: [300],
};

/** A clock the waits advance, so a test of a three-minute wait takes no time. */
export function fakeWaiting(): Waiting & { slept: number[]; said: string[] } {
  let at = 0;
  const slept: number[] = [];
  const said: string[] = [];
  return {
    slept,
    said,
    now: () => at,
    sleep: async (ms) => {
      slept.push(ms);
      at += ms;
    },
    onWait: (message) => said.push(message),
  };
}

/** The stack, its limits, and CloudWatch and Logs Insights as scripted, overridable by name. */
export function cloud(extra: Record<string, (input: any) => unknown> = {}) {
  return stubClients({
    'cloudFormation.DescribeStacksCommand': () => outputs(STACK_URL),
    'cloudFormation.DescribeStackResourcesCommand': () => HTTP_RESOURCES,
    'apiGatewayV2.GetStageCommand': () => ({
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    }),
    'lambda.GetFunctionConcurrencyCommand': () => ({}),
    'lambda.GetAccountSettingsCommand': () => ({
      AccountLimit: { ConcurrentExecutions: 1000, UnreservedConcurrentExecutions: 1000 },
    }),
    'cloudWatch.GetMetricDataCommand': () => ({
      MetricDataResults: Object.entries(METRICS).map(([Id, Values]) => ({
        Id,
        Values,
        StatusCode: 'Complete',
      })),
    }),
    'logs.StartQueryCommand': () => ({ queryId: 'q-1' }),
    'logs.GetQueryResultsCommand': () => ({
      status: 'Complete',
      results: [
        [
          { field: 'coldStarts', value: '3' },
          { field: 'p50', value: '412.5' },
          { field: 'max', value: '530.125' },
        ],
      ],
    }),
    ...extra,
  });
}

/** The preflight of an open run at `peakRate` and the read after the run, as the command does them. */
export async function stackSide(
  clients: ReturnType<typeof cloud>['clients'],
  { answered = 500, waiting = fakeWaiting(), peakRate = 50 } = {},
) {
  const side = await StackSide.preflight(
    { name: 'McpServer', region: 'eu-west-1' },
    STACK_URL,
    { model: 'open', peakRate, unit: 'requests' },
    85,
    clients,
  );
  return side.afterRun(RUN, answered, waiting);
}
