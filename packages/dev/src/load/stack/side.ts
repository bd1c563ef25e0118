/**
 * The endpoint's side of a run against a deployed stack (`npm run load -- --stack NAME`): before the load, the
 * stack's function and API and their limits, judged against the load offered; after it, the Lambda side from
 * CloudWatch. Every read that fails becomes a line of `problems` naming what it needed, and the run goes on
 * without what it would have read.
 */
import { Aws, AwsReadError, type AwsClients } from './aws.ts';
import { readLambdaSide, type LambdaSide, type RunWindow, type Waiting } from './lambda-side.ts';
import { judge, readConcurrency, readThrottle, type EndpointLimits, type Offered } from './limits.ts';
import { resolveStack, type StackApi, type StackTarget } from './resolve.ts';

/** `--stack NAME` and `--region R`. */
export interface StackOption {
  name: string;
  /** Default: the SDK's, from AWS_REGION or the shared config. */
  region?: string;
}

/** The endpoint's side in the report (`stack` in `--json`). */
export interface StackReport {
  stack: string;
  region?: string;
  functionName?: string;
  api?: StackApi;
  /** The limits read before the run. */
  limits: EndpointLimits;
  /** The preflight call's latency: the duration Little's law takes for each request. */
  expectedMs?: number;
  /** Where the offered load exceeds a limit. */
  warnings: string[];
  /** What could not be judged, and why. */
  notes: string[];
  /** Reads that failed, each naming what it needed. */
  problems: string[];
  /** After the run: the function's figures from CloudWatch. */
  lambda?: LambdaSide;
}

/** Two spellings of one endpoint compare equal (a trailing slash, the host's case). */
const sameEndpoint = (a: string, b: string) =>
  new URL(a).href.replace(/\/$/, '') === new URL(b).href.replace(/\/$/, '');

/** The reads before the run, and the session and target the read after it uses. */
export class StackSide {
  private constructor(
    readonly report: StackReport,
    private readonly aws?: Aws,
    private readonly target?: StackTarget,
  ) {}

  /**
   * Reads the stack and its limits, and judges `offered` against them. `clients` stand in for the SDK's (tests);
   * without them the SDK is loaded and its default credentials chain used.
   */
  static async preflight(
    option: StackOption,
    url: string,
    offered: Offered,
    expectedMs?: number,
    clients?: AwsClients,
  ): Promise<StackSide> {
    const report: StackReport = {
      stack: option.name,
      ...(option.region ? { region: option.region } : {}),
      limits: {},
      ...(expectedMs !== undefined ? { expectedMs } : {}),
      warnings: [],
      notes: [],
      problems: [],
    };
    let aws: Aws;
    let target: StackTarget;
    try {
      aws = await Aws.open({
        ...(option.region ? { region: option.region } : {}),
        ...(clients ? { clients } : {}),
      });
      report.region = aws.region;
      const resolved = await resolveStack(aws, option.name, url);
      target = resolved.target;
      report.problems.push(...resolved.problems);
    } catch (error) {
      if (!(error instanceof AwsReadError)) throw error;
      report.problems.push(`stack ${option.name} not read: ${error.message}`);
      return new StackSide(report);
    }
    report.functionName = target.functionName;
    if (target.api) report.api = target.api;
    if (target.endpointUrl && !sameEndpoint(target.endpointUrl, url))
      report.warnings.push(
        `the stack's endpoint is ${target.endpointUrl}, and the run loads ${url}: ` +
          "the Lambda side shows the stack's function, whatever else reaches it",
      );
    await readLimits(aws, target, report);
    const judged = judge(report.limits, offered, expectedMs);
    report.warnings.push(...judged.warnings);
    report.notes.push(...judged.notes);
    return new StackSide(report, aws, target);
  }

  /**
   * Adds the Lambda side of the run's window: `answered`, the MCP answers the run got, is how many invocations
   * CloudWatch must have counted before its figures are complete.
   */
  async afterRun(run: RunWindow, answered: number, waiting: Waiting): Promise<StackReport> {
    if (this.aws && this.target)
      this.report.lambda = await readLambdaSide(this.aws, this.target, run, answered, waiting);
    return this.report;
  }
}

/** The throttle and the concurrency, each read on its own: a failure of one leaves the other. */
async function readLimits(aws: Aws, target: StackTarget, report: StackReport): Promise<void> {
  const problem = (what: string) => (error: unknown) => {
    if (!(error instanceof AwsReadError)) throw error;
    report.problems.push(`${what} not read: ${error.message}`);
  };
  await Promise.all([
    target.api
      ? readThrottle(aws, target.api).then(
          (throttle) => (report.limits.throttle = throttle),
          problem('the throttle'),
        )
      : undefined,
    readConcurrency(aws, target.functionName).then(
      (concurrency) => (report.limits.concurrency = concurrency),
      problem("the function's concurrency"),
    ),
  ]);
}
