/**
 * The endpoint's limits before a run against a deployed stack: the stage's throttle (API Gateway answers 429 above
 * it) and the concurrency the function can have (Lambda throttles above it), and what the offered load makes of
 * them. Warnings only: the run goes ahead, since measuring a limit can be its very purpose.
 */
import type { GetStageCommandOutput as HttpStage } from '@aws-sdk/client-apigatewayv2';
import type { GetStageCommandOutput as RestStage } from '@aws-sdk/client-api-gateway';
import type {
  GetAccountSettingsCommandOutput,
  GetFunctionConcurrencyCommandOutput,
} from '@aws-sdk/client-lambda';
import type { Aws } from './aws.ts';
import type { StackApi } from './resolve.ts';

/** The throttle requests meet first: the stage's, or the account's default when the stage sets none. */
export interface Throttle {
  /** Requests per second (steady), and the burst above it the token bucket lets through. */
  rateLimit: number;
  burstLimit: number;
  source: 'stage' | 'account default';
}

/** The concurrent executions the function can have: its reserved concurrency, else the account's unreserved pool. */
export interface Concurrency {
  reserved?: number;
  /** The account's unreserved pool (shared by every function without a reservation), and its total. */
  unreserved: number;
  account: number;
  available: number;
}

/** The limits read: each absent when its read failed (the report's problems say why). */
export interface EndpointLimits {
  throttle?: Throttle;
  concurrency?: Concurrency;
}

/** The load a run offers, as the preflight can judge it. */
export type Offered =
  | { model: 'open'; peakRate: number; unit: 'requests' | 'flow runs' }
  | { model: 'closed'; connections: number; unit: 'requests' | 'flow runs' };

/** API Gateway's default account-level throttle in a region (a quota AWS can raise): 10,000 req/s, bursts 5,000. */
const ACCOUNT_THROTTLE = { rateLimit: 10_000, burstLimit: 5_000 } as const;

/** A stage's throttle figures, or the account default when it sets none (API Gateway's -1 is none too). */
function throttleOf(rateLimit: number | undefined, burstLimit: number | undefined): Throttle {
  if (rateLimit === undefined || rateLimit < 0) return { ...ACCOUNT_THROTTLE, source: 'account default' };
  return { rateLimit, burstLimit: burstLimit ?? ACCOUNT_THROTTLE.burstLimit, source: 'stage' };
}

/** The stage's throttle: an HTTP API's default route settings, or a REST API's `*\/*` method settings. */
export async function readThrottle(aws: Aws, api: StackApi): Promise<Throttle> {
  if (api.kind === 'http') {
    const stage = await aws.read<HttpStage>(
      'apiGatewayV2',
      new aws.sdk.apiGatewayV2.GetStageCommand({ ApiId: api.id, StageName: api.stage }),
      'apigateway:GET',
    );
    const settings = stage.DefaultRouteSettings;
    return throttleOf(settings?.ThrottlingRateLimit, settings?.ThrottlingBurstLimit);
  }
  const stage = await aws.read<RestStage>(
    'apiGateway',
    new aws.sdk.apiGateway.GetStageCommand({ restApiId: api.id, stageName: api.stage }),
    'apigateway:GET',
  );
  const all = stage.methodSettings?.['*/*'];
  return throttleOf(all?.throttlingRateLimit, all?.throttlingBurstLimit);
}

/** The function's reserved concurrency and the account's pool. */
export async function readConcurrency(aws: Aws, functionName: string): Promise<Concurrency> {
  const { lambda } = aws.sdk;
  const [reservation, account] = await Promise.all([
    aws.read<GetFunctionConcurrencyCommandOutput>(
      'lambda',
      new lambda.GetFunctionConcurrencyCommand({ FunctionName: functionName }),
      'lambda:GetFunctionConcurrency',
    ),
    aws.read<GetAccountSettingsCommandOutput>(
      'lambda',
      new lambda.GetAccountSettingsCommand({}),
      'lambda:GetAccountSettings',
    ),
  ]);
  const reserved = reservation.ReservedConcurrentExecutions;
  const unreserved = account.AccountLimit?.UnreservedConcurrentExecutions ?? 0;
  return {
    ...(reserved !== undefined ? { reserved } : {}),
    unreserved,
    account: account.AccountLimit?.ConcurrentExecutions ?? 0,
    available: reserved ?? unreserved,
  };
}

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The concurrency in words: which pool, and how much of it. */
const pool = (c: Concurrency) =>
  c.reserved !== undefined ? `its reserved ${n(c.reserved)}` : `the account's unreserved ${n(c.unreserved)}`;

/** The open model: the peak rate against the throttle, and (Little's law) rate × duration against the concurrency. */
function judgeOpen(limits: EndpointLimits, peak: number, unit: string, expectedMs: number | undefined) {
  const warnings: string[] = [];
  const notes: string[] = [];
  const { throttle, concurrency } = limits;
  if (unit !== 'requests') {
    notes.push(
      `a flow run sends several requests, so the request rate is above the ${n(peak)} ${unit}/s offered: ` +
        'not judged against the limits',
    );
    return { warnings, notes };
  }
  if (throttle && peak > throttle.rateLimit)
    warnings.push(
      `the offered peak of ${n(peak)} req/s exceeds the ${throttle.source} throttle of ${n(throttle.rateLimit)} ` +
        `req/s (bursts ${n(throttle.burstLimit)}): API Gateway answers 429 above it (counted as non-2xx)`,
    );
  if (concurrency && expectedMs !== undefined) {
    const atOnce = (peak * expectedMs) / 1000;
    if (atOnce > concurrency.available)
      warnings.push(
        `${n(peak)} req/s at the preflight call's ${n(expectedMs)} ms keeps about ${n(Math.ceil(atOnce))} ` +
          `executions running at once (Little's law), more than ${pool(concurrency)}: Lambda throttles above it`,
      );
  }
  return { warnings, notes };
}

/** The closed model: the connections against the concurrency; the rate they make is the server's to set. */
function judgeClosed(
  limits: EndpointLimits,
  connections: number,
  unit: string,
  expectedMs: number | undefined,
) {
  const warnings: string[] = [];
  const notes: string[] = [];
  const { throttle, concurrency } = limits;
  if (concurrency && connections > concurrency.available)
    warnings.push(
      `${n(connections)} connections can keep ${n(connections)} executions running at once, more than ` +
        `${pool(concurrency)}: Lambda throttles above it`,
    );
  if (!throttle) return { warnings, notes };
  if (unit !== 'requests' || expectedMs === undefined || expectedMs <= 0) {
    notes.push(
      'the closed model sends as fast as the answers come back: its rate is not judged before the run',
    );
    return { warnings, notes };
  }
  const estimate = (connections * 1000) / expectedMs;
  if (estimate > throttle.rateLimit)
    warnings.push(
      `${n(connections)} connections at the preflight call's ${n(expectedMs)} ms send about ${n(estimate)} req/s, ` +
        `above the ${throttle.source} throttle of ${n(throttle.rateLimit)} req/s: API Gateway answers 429 above it`,
    );
  return { warnings, notes };
}

/**
 * What the offered load makes of the limits: warnings where it exceeds them, and notes where it cannot be judged.
 * `expectedMs` is the preflight call's latency, the duration Little's law takes for each request.
 */
export function judge(
  limits: EndpointLimits,
  offered: Offered,
  expectedMs?: number,
): { warnings: string[]; notes: string[] } {
  return offered.model === 'open'
    ? judgeOpen(limits, offered.peakRate, offered.unit, expectedMs)
    : judgeClosed(limits, offered.connections, offered.unit, expectedMs);
}
