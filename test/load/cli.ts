/**
 * `npm run load -- --url URL [options]`: a load test that speaks MCP. See `USAGE` in options.ts and the README's
 * "Load testing" section.
 */
import { parseLoadArgs, UsageError, USAGE } from './options.ts';
import { formatReport } from './report.ts';
import { PreflightError, runLoad } from './run.ts';

async function main(): Promise<number> {
  let command;
  try {
    command = parseLoadArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  const options = command.options;
  const target = new URL(options.url);
  if (
    options.token &&
    target.protocol === 'http:' &&
    !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)
  ) {
    console.error('warning: sending a bearer token over plain http to a non-loopback host');
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  if (!options.json) {
    const span = options.amount !== undefined ? `${options.amount} requests` : `${options.durationS} s`;
    console.error(`preflight, then ${span} on ${options.connections} connections against ${options.url}…`);
  }
  try {
    const report = await runLoad(options, stop.signal);
    console.log(options.json ? JSON.stringify(report, null, 2) : formatReport(report));
    return report.passed ? 0 : 1;
  } catch (error) {
    if (!(error instanceof PreflightError)) throw error;
    if (options.json) console.log(JSON.stringify({ passed: false, preflightError: error.message }, null, 2));
    else console.error(`preflight failed: ${error.message}`);
    return 1;
  }
}

process.exitCode = await main();
