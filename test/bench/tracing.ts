/**
 * The tracing part: what each MCP_TRACING mode costs the MCP function, against `off` in the same run. Cold start
 * (a fresh process answering safe_divide, as part 1) and warm calls (ping, as part 2), with a collector on this host
 * that takes OTLP for `on` (as the ADOT Lambda extension would) and a daemon address on this host for the X-Ray path
 * `on` replaces (`xray`). Every mode runs in the same Lambda-like environment, with a sampled Lambda trace.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Artifacts } from './bundle.ts';
import type { ColdStartReport, ProbeSpec, WarmReport } from './children/protocol.ts';
import { lambdaEnvironment, runProbe, type ChildRuntime } from './probe.ts';
import {
  TRACING_MODES,
  type BenchResults,
  type TargetCheck,
  type TracingMode,
  type TracingResult,
} from './results.ts';
import { median } from './stats.ts';
import { ms, table, x } from './table.ts';
import { COLD_START_CALL, requestFor, THROUGHPUT_CALL } from './variants.ts';

/** How many runs of each kind. */
export interface TracingSettings {
  coldRuns: number;
  warmRuns: number;
  warmDurationMs: number;
}

/** A collector and a daemon address on this host that take what they are sent and count it. */
async function sinks() {
  let otlp = 0;
  let xray = 0;
  const collector = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      otlp++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const daemon = createSocket('udp4');
  daemon.on('message', () => xray++);
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  return {
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
    },
    counts: () => ({ otlp, xray }),
    close: async () => {
      await new Promise((resolve) => collector.close(resolve));
      await new Promise<void>((resolve) => daemon.close(() => resolve()));
    },
  };
}

/** The environment of a mode: Lambda's (a sampled trace, what Powertools Tracer needs) and MCP_TRACING. */
const environment = (mode: TracingMode, sinkEnv: Record<string, string>) =>
  lambdaEnvironment({
    ...sinkEnv,
    MCP_TRACING: mode,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    LAMBDA_TASK_ROOT: '/var/task',
    AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    _X_AMZN_TRACE_ID: 'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1',
  });

/** Measures each mode, modes taking turns in every run so that drift on the machine spreads evenly. */
export async function measureTracing(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  settings: TracingSettings,
  progress: (message: string) => void,
): Promise<TracingResult[]> {
  const sink = await sinks();
  const bundle = artifacts.servers.ours.file;
  const cold = new Map<TracingMode, ColdStartReport[]>(TRACING_MODES.map((m) => [m, []]));
  const warm = new Map<TracingMode, WarmReport[]>(TRACING_MODES.map((m) => [m, []]));
  const received = new Map<TracingMode, number>(TRACING_MODES.map((m) => [m, 0]));
  try {
    for (let run = 0; run < Math.max(settings.coldRuns, settings.warmRuns); run++) {
      progress(`tracing ${run + 1}/${Math.max(settings.coldRuns, settings.warmRuns)}`);
      for (const mode of TRACING_MODES) {
        const before = sink.counts();
        const env = environment(mode, sink.env);
        const probe = <T>(child: string, spec: ProbeSpec, timeoutMs: number) =>
          runProbe<T>(runtime, child, [bundle, JSON.stringify(spec)], env, timeoutMs);
        if (run < settings.coldRuns) {
          const request = requestFor({ era: 'stateless' }, COLD_START_CALL);
          cold.get(mode)!.push(await probe(artifacts.children.coldStart, { request }, 30_000));
        }
        if (run < settings.warmRuns) {
          const { warmDurationMs: durationMs } = settings;
          const spec = {
            request: requestFor({ era: 'stateless' }, THROUGHPUT_CALL),
            warmupCalls: 200,
            durationMs,
          };
          warm.get(mode)!.push(await probe(artifacts.children.warm, spec, durationMs + 60_000));
        }
        const after = sink.counts();
        received.set(mode, received.get(mode)! + (after.otlp - before.otlp) + (after.xray - before.xray));
      }
    }
  } finally {
    await sink.close();
  }
  return TRACING_MODES.map((mode) => {
    const colds = cold.get(mode)!;
    const warms = warm.get(mode)!;
    return {
      mode,
      coldCodeMs: median(colds.map((r) => r.answered - r.started)),
      importMs: median(colds.map((r) => r.imported - r.started)),
      warmMicros: median(warms.map((r) => (r.elapsedMs * 1000) / r.calls)),
      received: received.get(mode)!,
      failures: colds.filter((r) => r.outcome !== 'ok').length + warms.reduce((n, r) => n + r.failures, 0),
    };
  });
}

/** The report's section. */
export function tracingLines(results: BenchResults): string[] {
  const rows = results.tracing;
  if (!rows) return [];
  const off = rows.find((r) => r.mode === 'off')!;
  const delta = (value: number, base: number) => `${value >= base ? '+' : ''}${ms(value - base)}`;
  return [
    'Tracing: each MCP_TRACING mode of the MCP function against off (cold: safe_divide in a fresh process; warm: ping;',
    '   on sends OTLP to a collector on this host at each invocation end, xray sends UDP to a daemon address)',
    table(
      ['mode', 'load+init ms', 'cold code ms', 'vs off ms', 'warm µs/call', 'vs off µs', 'sent'],
      rows.map((r) => [
        r.mode,
        ms(r.importMs),
        ms(r.coldCodeMs),
        delta(r.coldCodeMs, off.coldCodeMs),
        ms(r.warmMicros),
        delta(r.warmMicros, off.warmMicros),
        String(r.received),
      ]),
    ),
    '',
  ];
}

/** Issue 29: OpenTelemetry (`on`) adds no more to a cold start than the X-Ray path it replaces. */
export function tracingChecks(results: BenchResults): TargetCheck[] {
  const rows = results.tracing;
  const on = rows?.find((r) => r.mode === 'on');
  const xray = rows?.find((r) => r.mode === 'xray');
  if (!on || !xray) return [];
  const ratio = xray.coldCodeMs / on.coldCodeMs;
  const met = on.failures === 0 && on.received > 0 && ratio >= 1;
  return [
    {
      name: 'tracing on: cold start vs the X-Ray path',
      goal: '≤ the X-Ray path (code time)',
      measured: `${ms(on.coldCodeMs)} vs ${ms(xray.coldCodeMs)} ms (${x(ratio)})`,
      met,
      ...(met
        ? {}
        : {
            note: `on ${ms(on.coldCodeMs)} ms, xray ${ms(xray.coldCodeMs)} ms, ${on.failures} failed, ${on.received} sent`,
          }),
    },
  ];
}
