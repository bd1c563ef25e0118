/**
 * The targets of issues 5 and 14, judged from a run's results. They are reported, never asserted: a missed target
 * says by how much, and the report's notes say why. Speed and size are judged here; memory and throughput under
 * large outputs in targets-capacity.ts, the later features' targets in targets-features.ts.
 */
import type { ColdStartResult } from './cold-start.ts';
import type { HttpResult } from './http.ts';
import type { BenchResults, TargetCheck } from './results.ts';
import { offloadChecks, readOutputChecks, soakCheck } from './targets-capacity.ts';
import { existenceChecks, modelBytesChecks, viewChecks } from './targets-features.ts';
import { tracingChecks } from './tracing.ts';
import type { WarmResult } from './warm.ts';

/** Cold start must be at least this many times faster than SDK 2.x. */
const COLD_START_SPEEDUP = 3;
/** Warm in-process throughput must be at least this many times SDK 2.x's. */
const WARM_SPEEDUP = 5;
/** Local HTTP throughput vs the bare node:http ceiling: issue 5's target, retired by issue 14 (it measured the
 * development server's event emulation more than the product); still reported, as information. */
const HTTP_SHARE = 0.7;
/** Issue 28: cold-start code time (load+init + first call) at least this many times faster than SDK 2.x. */
const COLD_CODE_SPEEDUP = 12;
/**
 * Issue 28: load+init of our bundle at most this share of SDK 2.x's in the same run. Its goal was 7 ms on a machine
 * where SDK 2.x's load+init took about 70 ms; a share holds on any machine, where milliseconds move with its speed
 * and load (the same code measured 6 ms and 13 ms on one VM on different days).
 */
const LOAD_INIT_SHARE = 0.1;
/** Issue 28: what a cold start of the MCP function loads (minified) stays within this many bytes. */
const BUNDLE_LIMIT_BYTES = 85 * 1024;

const x = (n: number) => `${n.toFixed(1)}x`;
const pct = (n: number) => `${Math.round(n * 100)}%`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Ours versus SDK 2.x in each era, by a bigger-is-better ratio; the worse era decides. */
function perEra<T extends { variant: { id: string } }>(
  list: readonly T[],
  ratio: (ours: T, baseline: T) => number,
): { era: string; ratio: number }[] {
  const find = (id: string) => list.find((r) => r.variant.id === id);
  const out: { era: string; ratio: number }[] = [];
  for (const era of ['stateless', 'handshake']) {
    const ours = find(`ours-${era}`);
    const baseline = find(`sdk2-${era}`);
    if (ours && baseline) out.push({ era, ratio: ratio(ours, baseline) });
  }
  return out;
}

function coldStartCheck(list: readonly ColdStartResult[]): TargetCheck {
  const eras = perEra(list, (ours, sdk) => sdk.totalMs / ours.totalMs);
  const worst = Math.min(...eras.map((e) => e.ratio));
  const met = worst >= COLD_START_SPEEDUP;
  return {
    name: 'cold start vs SDK 2.x',
    goal: `≥ ${COLD_START_SPEEDUP}x faster`,
    measured: eras.map((e) => `${e.era} ${x(e.ratio)}`).join(', '),
    met,
    ...(met
      ? {}
      : {
          note: `worst era ${worst.toFixed(2)}x, short by ${(COLD_START_SPEEDUP - worst).toFixed(2)}x; the total includes Node's own start-up, the same for every server`,
        }),
  };
}

function warmCheck(list: readonly WarmResult[]): TargetCheck {
  const eras = perEra(list, (ours, sdk) => ours.callsPerSecond / sdk.callsPerSecond);
  const worst = Math.min(...eras.map((e) => e.ratio));
  const met = worst >= WARM_SPEEDUP;
  return {
    name: 'warm in-process throughput vs SDK 2.x',
    goal: `≥ ${WARM_SPEEDUP}x`,
    measured: eras.map((e) => `${e.era} ${x(e.ratio)}`).join(', '),
    met,
    ...(met
      ? {}
      : { note: `worst era ${worst.toFixed(2)}x, short by ${(WARM_SPEEDUP - worst).toFixed(2)}x` }),
  };
}

function httpCheck(list: readonly HttpResult[]): TargetCheck {
  const bare = list.find((r) => r.id === 'bare');
  const emulation = list.find((r) => r.id === 'emulation');
  const ours = list.filter((r) => r.variant?.server === 'ours');
  if (!bare || ours.length === 0) {
    return { name: 'local HTTP throughput vs bare node:http', goal: '', measured: 'not run', met: undefined };
  }
  const rate = (r: HttpResult) => r.report.requestsPerSecond;
  const shares = ours.map((r) => ({ id: r.id, share: rate(r) / rate(bare) }));
  const worst = Math.min(...shares.map((s) => s.share));
  const met = worst >= HTTP_SHARE;
  const breakdown = emulation
    ? `; the API Gateway event emulation of the local server alone reaches ${pct(rate(emulation) / rate(bare))} ` +
      `of bare, and our function behind it ${shares
        .map((s) => pct((s.share * rate(bare)) / rate(emulation)))
        .join(' / ')} of the emulation alone`
    : '';
  return {
    name: 'local HTTP throughput vs bare node:http',
    goal: `retired (was ≥ ${pct(HTTP_SHARE)})`,
    measured: shares.map((s) => `${s.id} ${pct(s.share)}`).join(', '),
    met: undefined,
    information: true,
    ...(met ? {} : { note: `information only: ${pct(worst)} of bare${breakdown}` }),
  };
}

function errorsCheck(results: BenchResults): TargetCheck {
  const http = (results.http ?? []).reduce((sum, r) => sum + r.failures, 0);
  const soak = results.soak?.failures ?? 0;
  const warm = (results.warm ?? []).reduce((sum, r) => sum + r.failures, 0);
  const cold = (results.coldStart ?? []).reduce((sum, r) => sum + r.failures, 0);
  const offload = Array.isArray(results.offload) ? results.offload.filter((r) => !r.verified).length : 0;
  const read = (results.readOutput?.steps ?? []).filter((r) => !r.verified).length;
  const total = http + soak + warm + cold + offload + read;
  return {
    name: 'errors in every run',
    goal: '0',
    measured: `${total} (HTTP ${http}, soak ${soak}, warm ${warm}, cold start ${cold}, offload ${offload}, read_output ${read})`,
    met: total === 0,
    exact: true,
  };
}

function coldCodeChecks(list: readonly ColdStartResult[]): TargetCheck[] {
  const eras = perEra(list, (ours, sdk) => sdk.codeMs / ours.codeMs);
  const worst = Math.min(...eras.map((e) => e.ratio));
  return [
    {
      name: 'cold start code time vs SDK 2.x',
      goal: `≥ ${COLD_CODE_SPEEDUP}x faster`,
      measured: eras.map((e) => `${e.era} ${x(e.ratio)}`).join(', '),
      met: worst >= COLD_CODE_SPEEDUP,
      ...(worst >= COLD_CODE_SPEEDUP ? {} : { note: `short: ${x(worst)} in the worse era` }),
    },
    loadInitCheck(list),
  ];
}

function loadInitCheck(list: readonly ColdStartResult[]): TargetCheck {
  const eras = perEra(list, (ours, sdk) => ours.importMs / sdk.importMs);
  const worst = Math.max(...eras.map((e) => e.ratio));
  const ours = list.filter((r) => r.variant.server === 'ours');
  const met = worst <= LOAD_INIT_SHARE;
  return {
    name: 'load+init of our bundle vs SDK 2.x',
    goal: `≤ ${pct(LOAD_INIT_SHARE)} of SDK 2.x's`,
    measured: eras
      .map((e) => {
        const ms = ours.find((r) => r.variant.era === e.era)?.importMs ?? NaN;
        return `${e.era} ${ms.toFixed(1)} ms (${(e.ratio * 100).toFixed(1)}%)`;
      })
      .join(', '),
    met,
    ...(met
      ? {}
      : { note: `over by ${((worst - LOAD_INIT_SHARE) * 100).toFixed(1)} points in the worse era` }),
  };
}

function bundleCheck(results: BenchResults): TargetCheck {
  const ours = results.bundles.find((b) => b.label === 'ours');
  if (!ours) return { name: 'MCP function start-up graph', goal: '', measured: 'not built', met: undefined };
  const met = ours.bytes <= BUNDLE_LIMIT_BYTES;
  return {
    name: 'MCP function start-up graph (minified)',
    goal: `≤ ${kb(BUNDLE_LIMIT_BYTES)}`,
    measured: kb(ours.bytes),
    met,
    exact: true,
    ...(met
      ? {}
      : {
          note: `over by ${kb(ours.bytes - BUNDLE_LIMIT_BYTES)}; largest parts: ${ours.parts
            .slice(0, 3)
            .map((p) => `${p.name} ${kb(p.bytes)}`)
            .join(', ')}`,
        }),
  };
}

/** Judges every target the run has data for. */
export function evaluateTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  if (results.coldStart) checks.push(coldStartCheck(results.coldStart), ...coldCodeChecks(results.coldStart));
  if (results.warm) checks.push(warmCheck(results.warm));
  if (results.http) checks.push(httpCheck(results.http));
  checks.push(errorsCheck(results));
  checks.push(bundleCheck(results));
  if (results.soak) checks.push(soakCheck(results.soak));
  if (results.readOutput) checks.push(...readOutputChecks(results.readOutput));
  if (results.modelBytes) checks.push(...modelBytesChecks(results.modelBytes));
  if (results.existence) checks.push(...existenceChecks(results.existence));
  if (results.offload && !('pending' in results.offload)) checks.push(...offloadChecks(results.offload));
  if (results.views) checks.push(...viewChecks(results.views));
  checks.push(...tracingChecks(results));
  return checks;
}
