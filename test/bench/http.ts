/**
 * Part 3: HTTP throughput through the local server (the same node:http → API Gateway event
 * emulation as `npm start`) driven by the load command, against a bare node:http server as the ceiling. Each
 * server runs in its own child process, so the load generator and the server each have a core and the server's
 * memory is its own.
 */
import { type LoadEra, fire, type LoadReport, type Prepared, type LoadOptions } from '@mcp-lambda/dev/load';
import type { Artifacts } from './bundle.ts';
import type { ChildRuntime } from './probe.ts';
import { startServeChild, type ServeTarget } from './serve-child.ts';
import { requestFor, THROUGHPUT_CALL, VARIANTS, type Variant } from './variants.ts';

/** Load-run settings shared by every server. */
export interface HttpSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  /** Rounds over all servers; each server's median round is reported. */
  rounds: number;
}

/** The load command's options for the throughput call: for a time, or for a number of calls. */
export function loadOptions(
  url: string,
  era: LoadEra,
  settings: HttpSettings,
  span: { durationS: number } | { amount: number },
): LoadOptions {
  return {
    url,
    tool: THROUGHPUT_CALL.tool,
    args: THROUGHPUT_CALL.args,
    connections: settings.connections,
    durationS: 'durationS' in span ? span.durationS : settings.durationS,
    ...('amount' in span ? { amount: span.amount } : {}),
    headers: {},
    era,
    initialize: false,
    timeoutS: 10,
    json: false,
  };
}

/** One server's HTTP runs. */
export interface HttpResult {
  /** A variant id, `bare` or `emulation`. */
  id: string;
  variant?: Variant;
  /** The run with the median requests/s (its latencies are the ones shown). */
  report: LoadReport;
  /** Requests/s of every round. */
  rounds: number[];
  /** Failed requests over all rounds (transport errors, non-2xx, JSON-RPC errors, unreadable answers). */
  failures: number;
  /** Peak RSS of the server process over its whole life (start, warm-up and load), largest over the rounds. */
  peakRssBytes: number;
}

/** Failed requests of one load run. */
export const failuresOf = (report: LoadReport) =>
  report.errors + report.outcomes['rpc-error'] + report.outcomes['non-2xx'] + report.outcomes.malformed;

/** The throughput call, prepared for the load command in an era. */
export function prepared(era: LoadEra): Prepared {
  const request = requestFor({ era }, THROUGHPUT_CALL);
  return {
    request,
    protocolVersion: request.headers['mcp-protocol-version'] ?? '',
    first: { outcome: 'ok' },
  };
}

/**
 * Runs the load command against the bare ceiling, the local server's emulation alone, and every variant behind
 * the local server, `rounds` times in
 * turn (so drift on the machine spreads over all of them), each run after a short warm-up.
 */
export async function measureHttp(
  artifacts: Artifacts,
  runtime: ChildRuntime,
  settings: HttpSettings,
  progress: (message: string) => void,
): Promise<HttpResult[]> {
  const targets: { id: string; variant?: Variant; era: LoadEra; bundle: ServeTarget }[] = [
    { id: 'bare', era: 'handshake', bundle: 'bare' },
    { id: 'emulation', era: 'handshake', bundle: 'emulation' },
    ...VARIANTS.map((variant) => ({
      id: variant.id,
      variant,
      era: variant.era,
      bundle: artifacts.servers[variant.server].file,
    })),
  ];
  const runs = new Map<string, { reports: LoadReport[]; peak: number }>(
    targets.map((t) => [t.id, { reports: [], peak: 0 }]),
  );
  for (let round = 0; round < settings.rounds; round++) {
    for (const target of targets) {
      progress(`HTTP load ${round + 1}/${settings.rounds}: ${target.id}`);
      const child = await startServeChild(runtime, artifacts, target.bundle);
      try {
        const request = prepared(target.era);
        await fire(loadOptions(child.url, target.era, settings, { durationS: settings.warmupS }), request);
        const report = await fire(
          loadOptions(child.url, target.era, settings, { durationS: settings.durationS }),
          request,
        );
        const { maxRssBytes } = await child.stats(false);
        const entry = runs.get(target.id)!;
        entry.reports.push(report);
        entry.peak = Math.max(entry.peak, maxRssBytes);
      } finally {
        await child.stop();
      }
    }
  }
  return targets.map((target) => {
    const { reports, peak } = runs.get(target.id)!;
    const byRate = [...reports].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return {
      id: target.id,
      ...(target.variant ? { variant: target.variant } : {}),
      report: byRate[Math.floor((byRate.length - 1) / 2)]!,
      rounds: reports.map((r) => r.requestsPerSecond),
      failures: reports.reduce((sum, r) => sum + failuresOf(r), 0),
      peakRssBytes: peak,
    };
  });
}
