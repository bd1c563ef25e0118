/**
 * `npm run bench`: bundles the MCP function and the two SDK baselines exactly as the stack bundles functions, then
 * measures cold start, warm in-process throughput, HTTP throughput against a bare node:http ceiling, the offload
 * round trip, bundle sizes and memory, read_output over a 100 MB output, the bytes a model is handed, and prints
 * one table with ratios.
 * Everything binds 127.0.0.1 and every run is bounded in time or count. See BENCHMARKS.md.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nodeOptionsFor } from '@mcp-lambda/cdk/bundling';
import { Defaults } from '@mcp-lambda/server/limits';
import { lambdaNode } from '../support/node-version.ts';
import { buildArtifacts, type Artifacts } from './bundle.ts';
import { measureColdStarts } from './cold-start.ts';
import { formatBench } from './format.ts';
import { measureHttp } from './http.ts';
import { soak } from './soak.ts';
import { measureExistence } from './existence.ts';
import { measureModelBytes } from './model-bytes.ts';
import { measureOffload } from './offload.ts';
import { measureReadOutput } from './read-output.ts';
import { measureStreaming } from './stream.ts';
import { measureTaskPolls } from './tasks.ts';
import { measureAsks } from './asks.ts';
import { measureResumes } from './resumes.ts';
import { currentLoad, describeMachine } from './machine.ts';
import type { ChildRuntime } from './probe.ts';
import type { BenchResults, BenchSettings } from './results.ts';
import { evaluateTargets } from './targets.ts';
import { measureViews } from './views.ts';
import { runParts, type Part } from './run-parts.ts';
import { takeChildDeaths } from './serve-child.ts';
import { runLine, USAGE, USAGE_HINT } from './usage.ts';
import { measureTracing } from './tracing.ts';
import { measureWarm } from './warm.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Bundles and the last results land here (kept out of git). */
const OUT_DIR = join(ROOT, '.local', 'bench');
/** The NODE_OPTIONS the stack gives the functions at the default log level, applied to every server alike. */
const FUNCTION_FLAGS = (nodeOptionsFor(Defaults.logLevel) ?? '').split(/\s+/).filter(Boolean);

function positiveInt(
  raw: string | undefined,
  name: string,
  fallback: number,
  min = 1,
  max = 10_000_000,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  }
  return value;
}

/** The counts and durations of a run: the defaults, shorter with `--quick`, or as given. */
function settingsOf(values: Record<string, string | boolean | undefined>): BenchSettings {
  const quick = values.quick === true;
  const given = (name: string) => values[name] as string | undefined;
  return {
    coldStartRuns: positiveInt(given('runs'), 'runs', quick ? 3 : 11, 1, 200),
    warmRuns: positiveInt(given('warm-runs'), 'warm-runs', quick ? 1 : 3, 1, 20),
    warmDurationMs: quick ? 1000 : 2000,
    httpConnections: positiveInt(given('connections'), 'connections', 16, 1, 1000),
    httpDurationS: positiveInt(given('duration'), 'duration', quick ? 1 : 4, 1, 600),
    httpRounds: positiveInt(given('rounds'), 'rounds', quick ? 1 : 2, 1, 20),
    soakCalls: positiveInt(given('soak'), 'soak', quick ? 10_000 : 100_000, 0, 10_000_000),
    streamCalls: positiveInt(given('stream-calls'), 'stream-calls', quick ? 5 : 30, 1, 1000),
    taskPolls: quick ? 200 : 1_000,
    idReads: positiveInt(given('id-reads'), 'id-reads', quick ? 200 : 1_000, 10, 100_000),
    asks: quick ? 10 : 40,
    resumes: quick ? 10 : 40,
    viewPaintRuns: quick ? 3 : 11,
    execArgv: FUNCTION_FLAGS,
    ...(quick ? { quick } : {}),
  };
}

/** What every part of a run measures with. */
interface Run {
  readonly artifacts: Artifacts;
  readonly runtime: ChildRuntime;
  readonly progress: (message: string) => void;
  readonly deaths: () => string[];
}

/**
 * The parts of a run, in the order they run, each writing its rows into the results; `--skip` and `--only` name
 * them.
 */
const PARTS: Readonly<Record<string, Part<Run>>> = {
  cold: async (r, { artifacts, runtime, progress }) => {
    r.coldStart = await measureColdStarts(artifacts, runtime, r.settings.coldStartRuns, progress);
  },
  warm: async (r, { artifacts, runtime, progress }) => {
    const { warmRuns, warmDurationMs } = r.settings;
    r.warm = await measureWarm(artifacts, runtime, warmRuns, warmDurationMs, progress);
  },
  http: async (r, { artifacts, runtime, progress }) => {
    r.http = await measureHttp(artifacts, runtime, httpSettings(r.settings), progress);
  },
  offload: async (r, { artifacts, runtime, progress }) => {
    r.offload = await measureOffload(artifacts, runtime, progress);
  },
  stream: async (r, { progress }) => {
    r.stream = await measureStreaming(r.settings.streamCalls, progress);
  },
  soak: async (r, { artifacts, runtime, progress }) => {
    const { soakCalls } = r.settings;
    if (soakCalls > 0) r.soak = await soak(artifacts, runtime, soakCalls, httpSettings(r.settings), progress);
  },
  read: async (r, { artifacts, runtime, progress }) => {
    r.readOutput = await measureReadOutput(artifacts, runtime, progress);
  },
  tasks: async (r, { artifacts, runtime, progress }) => {
    r.tasks = await measureTaskPolls(artifacts, runtime, r.settings.taskPolls, progress);
  },
  model: async (r) => {
    r.modelBytes = await measureModelBytes();
  },
  existence: async (r, { progress }) => {
    progress('existence timing');
    r.existence = await measureExistence(r.settings.idReads ?? 1_000);
  },
  asks: async (r, { progress }) => {
    r.asks = await measureAsks(r.settings.asks ?? 40, progress);
  },
  resumes: async (r, { progress }) => {
    r.resumes = await measureResumes(r.settings.resumes ?? 40, progress);
  },
  views: async (r, { artifacts, runtime, progress }) => {
    r.views = await measureViews(artifacts, runtime, r.settings.viewPaintRuns, progress);
  },
  tracing: async (r, { artifacts, runtime, progress }) => {
    const { coldStartRuns, warmRuns, warmDurationMs } = r.settings;
    r.tracing = await measureTracing(
      artifacts,
      runtime,
      { coldRuns: coldStartRuns, warmRuns, warmDurationMs },
      progress,
    );
  },
};
const PART_NAMES = Object.keys(PARTS);

/** The load settings of the HTTP and soak parts. */
const httpSettings = (settings: BenchSettings) => ({
  connections: settings.httpConnections,
  durationS: settings.httpDurationS,
  warmupS: 1,
  rounds: settings.httpRounds,
});

/** The parts to skip: those `--skip` names, and with `--only` (one row's part alone, say the views) all others. */
function skippedParts(values: Record<string, string | boolean | undefined>): Set<string> {
  const listed = (option: 'skip' | 'only') => {
    const parts = ((values[option] as string | undefined) ?? '').split(',').filter(Boolean);
    const unknown = parts.find((part) => !PART_NAMES.includes(part));
    if (unknown) throw new Error(`--${option}: unknown part ${unknown}`);
    return parts;
  };
  const only = listed('only');
  return new Set([...listed('skip'), ...(only.length ? PART_NAMES.filter((p) => !only.includes(p)) : [])]);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      runs: { type: 'string' },
      'warm-runs': { type: 'string' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      soak: { type: 'string' },
      'stream-calls': { type: 'string' },
      'id-reads': { type: 'string' },
      skip: { type: 'string' },
      only: { type: 'string' },
      node: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const settings = settingsOf(values);
  const skip = skippedParts(values);
  // The functions run on the Lambda runtime's major version unless another binary is named on purpose.
  const node = values.node ?? lambdaNode('npm run bench');
  const runtime: ChildRuntime = { node, execArgv: FUNCTION_FLAGS };
  const progress = (message: string) => process.stderr.write(`… ${message}\n`);
  progress(runLine(values.quick === true));

  const started = performance.now();
  const machine = describeMachine(node);
  progress('bundling');
  const artifacts = await buildArtifacts(OUT_DIR);
  const results: BenchResults = {
    date: new Date().toISOString(),
    machine,
    settings,
    // Without the build paths: the results name no machine paths.
    bundles: [...Object.values(artifacts.servers), ...(artifacts.resources ? [artifacts.resources] : [])].map(
      ({ file: _file, ...bundle }) => bundle,
    ),
    targets: [],
    durationS: 0,
  };
  await runParts(PARTS, results, { artifacts, runtime, progress, deaths: takeChildDeaths }, skip);
  results.targets = evaluateTargets(results);
  results.machine.loadEnd = currentLoad();
  results.durationS = (performance.now() - started) / 1000;
  await writeFile(join(OUT_DIR, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(values.json ? JSON.stringify(results, null, 2) : formatBench(results));
  return results.failedParts ? 1 : 0;
}

try {
  process.exitCode = await main();
  // A failed part may have left a handle open (a server of its own it never got to close): once the report is
  // written out, the run ends anyway.
  if (process.exitCode !== 0) process.stdout.write('', () => process.exit());
} catch (error) {
  console.error(`bench failed: ${(error as Error).message} (${USAGE_HINT})`);
  process.exitCode = 1;
}
