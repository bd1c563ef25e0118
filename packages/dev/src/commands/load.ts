/**
 * `npm run load -- --url URL [options]` (`mcp-lambda-dev load`): a load test that speaks MCP. See `USAGE` in
 * ../load/options.ts and docs/performance.md "Load testing an endpoint". Exit status: 0 passed, 1 failed or could
 * not run, 2 usage error; errors are one line on stderr, never a stack trace.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  parseLoadArgs,
  UsageError,
  USAGE,
  type LoadOptions,
  type ParsedCommand,
  type ReportFile,
} from '../load/options.ts';
import { renderHtmlReport } from '../load/report-html.ts';
import { renderSvgReport } from '../load/report-svg.ts';
import { formatReport } from '../load/report-text.ts';
import { PreflightError, prepare } from '../load/preflight.ts';
import { fire } from '../load/run.ts';
import { RunRecorder } from '../load/samples.ts';
import { describePhases } from '../load/schedule.ts';
import { runArtilleryCommand } from './load-artillery.ts';
import { reportPreflightFailure, runScenarioCommand } from './load-scenario.ts';
import { offeredLoad, stackAfterRun, stackPreflight } from './load-stack.ts';

export const usage = USAGE;

const HELP_HINT = '(npm run load -- --help lists the options)';

/** Makes sure the report can be written (creating its folder), before spending the run on it. */
function prepareReportFolder(report: ReportFile): void {
  const path = resolve(report.path);
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw new UsageError(`--report: ${report.path} is a folder`);
  }
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new UsageError(`--report: cannot create the folder of ${report.path} (${code})`);
  }
}

/** The load the run will put on the endpoint, in words, for the line before it starts. */
function plannedLoad(options: LoadOptions): string {
  if (options.open) {
    const { phases, maxInFlight } = options.open;
    const amount = options.amount !== undefined ? ` (${options.amount} requests)` : '';
    return `${describePhases(phases)}${amount}, at most ${maxInFlight} in flight (open model)`;
  }
  const span = options.amount !== undefined ? `${options.amount} requests` : `${options.durationS} s`;
  return `${span} on ${options.connections} connections (closed model)`;
}

/** A bearer token should not cross a network in the clear: warn when it would. */
function warnPlainToken(url: string, hasToken: boolean): void {
  const target = new URL(url);
  if (
    hasToken &&
    target.protocol === 'http:' &&
    !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)
  )
    console.error('warning: sending a bearer token over plain http to a non-loopback host');
}

/** The report file a command writes, if any. */
const reportOf = (command: Exclude<ParsedCommand, { kind: 'help' | 'emit' }>): ReportFile | undefined =>
  command.kind === 'from-artillery' ? command.report : command.options.report;

async function load(args: string[]): Promise<number> {
  let command: ParsedCommand;
  try {
    command = parseLoadArgs(args);
    const report = command.kind === 'help' || command.kind === 'emit' ? undefined : reportOf(command);
    if (report) prepareReportFolder(report);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message} ${HELP_HINT}`);
    return 2;
  }
  if (command.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  for (const notice of command.notices) console.error(`note: ${notice}`);
  if (command.kind === 'emit' || command.kind === 'from-artillery') return runArtilleryCommand(command);
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  if (command.kind === 'scenario') {
    const { options } = command;
    warnPlainToken(options.url, options.token !== undefined || options.scenario.auth !== undefined);
    return runScenarioCommand(options, stop.signal);
  }
  const options = command.options;
  warnPlainToken(options.url, options.token !== undefined);
  if (!options.json) console.error(`preflight, then ${plannedLoad(options)} against ${options.url}…`);
  const recorder = new RunRecorder();
  let report;
  try {
    const prepared = await prepare(options);
    const side = options.stack
      ? await stackPreflight(options.stack, options.url, offeredLoad(options, 'requests'), prepared.firstMs)
      : undefined;
    report = await fire(options, prepared, stop.signal, recorder);
    // Every MCP answer came from an invocation, which CloudWatch must have counted before its figures are whole.
    const answered = report.outcomes.ok + report.outcomes['tool-error'] + report.outcomes['rpc-error'];
    if (side) report.stack = await stackAfterRun(side, recorder.startedAt, answered);
  } catch (error) {
    if (!(error instanceof PreflightError)) throw error;
    reportPreflightFailure(error, options.json);
    return 1;
  }
  console.log(options.json ? JSON.stringify(report, null, 2) : formatReport(report));
  if (options.report) {
    const run = { options, report, recorder };
    writeFileSync(
      options.report.path,
      options.report.format === 'html' ? renderHtmlReport(run) : renderSvgReport(run),
    );
    console.error(`report written to ${options.report.path}`);
  }
  return report.passed ? 0 : 1;
}

/**
 * The command: its exit status. Anything else that goes wrong (a refused write, an error inside the load generator)
 * is one line too.
 */
export async function main(args: string[]): Promise<number> {
  try {
    return await load(args);
  } catch (error) {
    console.error(`load test failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
