/** The latency rows of the bench report: cold start, warm calls, HTTP, first streamed event, task polls. */
import type { BenchResults } from './results.ts';
import { mb, ms, n, table, variantLabel, x } from './table.ts';

/** 1. Cold start of each server and revision, with the ratios to ours. */
export function coldStartLines(results: BenchResults): string[] {
  if (!results.coldStart) return [];
  const s = results.settings;
  const out: string[] = [];
  const byId = new Map(results.coldStart.map((r) => [r.variant.id, r]));
  out.push(
    `1. Cold start: fresh Node process → first tools/call (safe_divide) answered; median of ${s.coldStartRuns} processes`,
  );
  out.push(
    table(
      [
        'server, revision',
        'process→answer ms',
        'load+init ms',
        'first call ms',
        'ours is',
        'ours is (code only)',
      ],
      results.coldStart.map((r) => {
        const ours = byId.get(`ours-${r.variant.era}`)!;
        const isOurs = r.variant.server === 'ours';
        return [
          variantLabel(r.variant),
          ms(r.totalMs),
          ms(r.importMs),
          ms(r.firstCallMs),
          isOurs ? '' : `${x(r.totalMs / ours.totalMs)} faster`,
          isOurs ? '' : `${x(r.codeMs / ours.codeMs)} faster`,
        ];
      }),
    ),
  );
  out.push(
    "   (code only = load+init + first call, without Node's own start-up, which is the same for every server)",
  );
  out.push('');
  return out;
}

/** 2. Warm in-process calls per second. */
export function warmLines(results: BenchResults): string[] {
  if (!results.warm) return [];
  const s = results.settings;
  const out: string[] = [];
  const byId = new Map(results.warm.map((r) => [r.variant.id, r]));
  out.push(
    `2. Warm in-process: Lambda handler calls/s, tools/call ping, one call at a time; median of ${s.warmRuns} × ${s.warmDurationMs / 1000} s`,
  );
  out.push(
    table(
      ['server, revision', 'calls/s', 'µs/call', 'ours is'],
      results.warm.map((r) => {
        const ours = byId.get(`ours-${r.variant.era}`)!;
        return [
          variantLabel(r.variant),
          n(r.callsPerSecond),
          r.microsPerCall.toFixed(0),
          r.variant.server === 'ours' ? '' : `${x(ours.callsPerSecond / r.callsPerSecond)} faster`,
        ];
      }),
    ),
  );
  out.push('');
  return out;
}

/** 3. HTTP throughput and latency through the local server. */
export function httpLines(results: BenchResults): string[] {
  if (!results.http) return [];
  const s = results.settings;
  const out: string[] = [];
  const bare = results.http.find((r) => r.id === 'bare');
  out.push(
    `3. HTTP through the local server (npm start's API Gateway emulation), load command, tools/call ping, ` +
      `${s.httpConnections} connections, ${s.httpDurationS} s; median of ${s.httpRounds} rounds`,
  );
  out.push(
    table(
      [
        'server, revision',
        'req/s',
        'of bare',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'failed',
        'isError',
        'peak RSS MB',
      ],
      results.http.map((r) => [
        r.variant
          ? variantLabel(r.variant)
          : r.id === 'bare'
            ? 'bare node:http, fixed response (ceiling)'
            : 'local server emulation, fixed response',
        n(r.report.requestsPerSecond),
        bare ? `${Math.round((r.report.requestsPerSecond / bare.report.requestsPerSecond) * 100)}%` : '',
        String(r.report.latencyMs.p50),
        String(r.report.latencyMs.p90),
        String(r.report.latencyMs.p99),
        String(r.report.latencyMs.max),
        n(r.failures),
        n(r.report.outcomes['tool-error']),
        mb(r.peakRssBytes),
      ]),
    ),
  );
  out.push(
    '   (failed = transport errors + non-2xx + JSON-RPC errors + unreadable answers, over all rounds)',
  );
  out.push('');
  return out;
}

/** 5. The first streamed event in each API mode. */
export function streamLines(results: BenchResults): string[] {
  if (!results.stream) return [];
  const out: string[] = [];
  out.push(
    `5. First streamed event: a tool that reports progress at once, works ${results.stream[0]?.workMs ?? '?'} ms, ` +
      'reports again and answers, behind the local server in each mode; one call at a time, medians of ' +
      `${results.stream[0]?.calls ?? '?'} calls (ms from sending the request)`,
  );
  out.push(
    table(
      ['mode', 'headers', 'first event', 'response', 'first event after emit', 'p95'],
      results.stream.map((r) => [
        r.api === 'http' ? 'http (buffered adapter)' : 'rest-streaming (streaming adapter)',
        ms(r.headersMs),
        ms(r.firstEventMs),
        ms(r.responseMs),
        ms(r.deliveryMs),
        ms(r.deliveryP95Ms),
      ]),
    ),
  );
  out.push(
    '   (first event after emit = its arrival at the client minus when the tool emitted it, on one clock: server ' +
      'and client share the benchmark process)',
  );
  out.push('');
  return out;
}

/** 8. One tasks/get poll against the local DynamoDB. */
export function tasksLines(results: BenchResults): string[] {
  if (!results.tasks) return [];
  const s = results.settings;
  const out: string[] = [];
  out.push(
    `8. Tasks: one tasks/get poll through our bundled function behind the local server, task records in a local ` +
      `DynamoDB (dynalite on loopback), ${n(s.taskPolls)} sequential requests per row after a warm-up`,
  );
  out.push(
    table(
      ['request', 'p50 ms', 'p99 ms'],
      results.tasks.map((r) => [r.label, String(r.p50Ms), String(r.p99Ms)]),
    ),
  );
  out.push('');
  return out;
}
