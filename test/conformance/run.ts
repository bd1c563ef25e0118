/**
 * `npm run conformance`: serves the conformance fixtures through the Lambda adapter and the local HTTP server on
 * 127.0.0.1 (a free port), runs both MCP conformance suites against it, prints their summaries and exits
 * non-zero on any failure not named in a baseline, or on a baseline entry that no longer fails.
 *
 * - handshake era: @modelcontextprotocol/conformance 0.1.16, `--suite all`, baseline test/conformance/baseline.yml
 *   (test/conformance/baseline-rest-streaming.yml with `--api rest-streaming`, where tools can ask mid-call)
 * - 2026-07-28: the 0.2.0-alpha line (installed as conformance-next), `--requirements 2026-07-28`, baseline
 *   test/conformance/baseline-2026-07-28.yml
 *
 * - authorization server: the 0.2.0-alpha `authorization` scenarios against the local authorization bridge
 *   (test/conformance/authorization.ts); every check must pass, no baseline
 *
 * `npm run conformance -- --api rest-streaming` runs the two server suites against the response-streaming adapter
 * behind the local server's REST API streaming emulation instead.
 *
 * The suites need Node 22 or later (they use `fs.globSync`): they run on this process's Node, and the run stops with
 * a clear message on an older one. Per-scenario results land in results/conformance/ (git-ignored).
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lambdaNode } from '../support/node-version.ts';
import { runAuthorizationConformance } from './authorization.ts';
import { serveConformanceServer } from './server.ts';
import {
  judge,
  missingChecks,
  parseBaseline,
  type RequiredChecks,
  type ScenarioResult,
  type Verdict,
} from './verdict.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SUITE_TIMEOUT_MS = 120_000;

interface Suite {
  label: string;
  entry: string;
  args: string[];
  baseline: string;
  results: string;
  /** Checks that must be SUCCESS (a scenario that passes on INFO alone has not shown the feature). */
  required: RequiredChecks;
}

/**
 * Streams that survive a cut (SEP-1699, docs/streaming.md): behind the streaming adapter, server-sse-polling must
 * see the priming event, the retry field and the resumed stream, not fall back to its JSON or WARNING paths.
 */
const RESUMABLE_STREAMS: RequiredChecks = {
  'server-sse-polling': [
    'server-sse-priming-event',
    'server-sse-retry-field',
    'server-sse-disconnect-resume',
  ],
};

/** The suites, with the handshake-era baseline of the API they run against. */
const suitesFor = (api: 'http' | 'rest-streaming'): Suite[] => [
  {
    label: 'handshake era (2025-06-18, 2025-11-25), conformance 0.1.16',
    entry: 'node_modules/@modelcontextprotocol/conformance/dist/index.js',
    args: ['--suite', 'all'],
    baseline:
      api === 'http' ? 'test/conformance/baseline.yml' : 'test/conformance/baseline-rest-streaming.yml',
    results: 'results/conformance/handshake',
    required: api === 'rest-streaming' ? RESUMABLE_STREAMS : {},
  },
  {
    label: 'stateless era (2026-07-28), conformance 0.2.0-alpha',
    entry: 'node_modules/@modelcontextprotocol/conformance-next/dist/index.js',
    args: ['--requirements', '2026-07-28'],
    baseline: 'test/conformance/baseline-2026-07-28.yml',
    results: 'results/conformance/2026-07-28',
    required: {},
  },
];

/** Runs one suite to completion (bounded by SUITE_TIMEOUT_MS) and returns its exit code and output. */
function runSuite(node: string, suite: Suite, url: string): Promise<{ code: number; output: string }> {
  const args = [
    join(root, suite.entry),
    'server',
    '--url',
    url,
    ...suite.args,
    '--expected-failures',
    join(root, suite.baseline),
    '-o',
    join(root, suite.results),
  ];
  return new Promise((done) => {
    const child = spawn(node, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      output += `\nconformance: the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s and was stopped\n`;
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? 1, output });
    });
  });
}

const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Reads every scenario's checks.json from a suite's output folder. */
async function readResults(folder: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const entry of (await readdir(folder)).sort()) {
    const match = RESULT_DIR.exec(entry);
    if (!match) continue;
    const checks = JSON.parse(await readFile(join(folder, entry, 'checks.json'), 'utf8'));
    results.push({ scenario: match[1]!, checks });
  }
  return results;
}

/** The suite's own summary: everything from its SUMMARY banner on, without the per-scenario progress lines. */
function summaryOf(output: string): string {
  const at = output.indexOf('=== SUMMARY ===');
  return (at >= 0 ? output.slice(at) : output).trim();
}

function report(
  suite: Suite,
  verdict: Verdict,
  suiteCode: number,
  results: readonly ScenarioResult[],
): string[] {
  const lines = [
    `${verdict.ok && suiteCode === 0 ? 'PASS' : 'FAIL'} ${suite.label}: ` +
      `${verdict.passed.length} passed, ${verdict.expected.length} failed as baselined, ` +
      `${verdict.unexpected.length} failed unexpectedly, ${verdict.stale.length} stale baseline entries`,
  ];
  for (const name of verdict.unexpected) {
    const result = results.find((r) => r.scenario === name);
    const missing = result ? missingChecks(result, suite.required) : ['(the scenario did not run)'];
    lines.push(
      `  unexpected failure: ${name} (not in ${suite.baseline})` +
        (missing.length ? `; required checks not SUCCESS: ${missing.join(', ')}` : ''),
    );
  }
  for (const name of verdict.stale) lines.push(`  stale baseline entry: ${name} (passes or did not run)`);
  if (suiteCode !== 0 && verdict.ok) lines.push(`  the suite itself exited with code ${suiteCode}`);
  return lines;
}

const { values } = parseArgs({ options: { api: { type: 'string', default: 'http' } }, strict: true });
if (values.api !== 'http' && values.api !== 'rest-streaming') {
  console.error(`conformance: --api must be "http" or "rest-streaming" (got ${values.api})`);
  process.exit(1);
}
const api = values.api;
const suites = suitesFor(api);
const started = performance.now();
let node: string;
try {
  node = lambdaNode('npm run conformance');
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const server = await serveConformanceServer(api);
let exitCode = 0;
try {
  for (const suite of suites) {
    await rm(join(root, suite.results), { recursive: true, force: true });
    await mkdir(join(root, suite.results), { recursive: true });
  }
  console.log(`conformance: fixture server at ${server.url} (${api})`);
  const runs = await Promise.all(suites.map((suite) => runSuite(node, suite, server.url)));
  const lines: string[] = [];
  for (const [index, suite] of suites.entries()) {
    const run = runs[index]!;
    console.log(`\n##### ${suite.label}\n`);
    console.log(summaryOf(run.output));
    const results = await readResults(join(root, suite.results));
    const baseline = parseBaseline(await readFile(join(root, suite.baseline), 'utf8'));
    const verdict = judge(results, baseline, suite.required);
    lines.push(...report(suite, verdict, run.code, results));
    if (!verdict.ok || run.code !== 0) exitCode = 1;
  }
  // The bridge serves the HTTP API only: its suite runs once, with the default API.
  if (api === 'http') {
    const authorizationResults = join(root, 'results/conformance/authorization');
    await rm(authorizationResults, { recursive: true, force: true });
    await mkdir(authorizationResults, { recursive: true });
    const authorization = await runAuthorizationConformance(node, root, authorizationResults);
    console.log('\n##### authorization server (the bridge), conformance 0.2.0-alpha\n');
    console.log(summaryOf(authorization.output));
    lines.push(
      `${authorization.ok ? 'PASS' : 'FAIL'} authorization server (the bridge), conformance 0.2.0-alpha:`,
      ...authorization.lines,
    );
    if (!authorization.ok) exitCode = 1;
  }
  console.log(`\n##### conformance verdict\n\n${lines.join('\n')}`);
  console.log(
    `\nResults in ${[
      ...suites.map((s) => s.results),
      ...(api === 'http' ? ['results/conformance/authorization'] : []),
    ]
      .map((r) => relative(process.cwd(), join(root, r)))
      .join(', ')}; ` + `took ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
} finally {
  await server.close();
}
process.exit(exitCode);
