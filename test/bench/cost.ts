/**
 * The cost table: Lambda GB-seconds (and dollars) per million calls, cold starts included, each server at the
 * smallest memory setting it fits, from the run's warm, cold-start and HTTP memory figures. Pure arithmetic.
 */
import type { BenchResults } from './results.ts';

/** Lambda arm64 duration price, us-east-1, USD per GB-second (first pricing tier). */
export const PRICE_PER_GB_SECOND_USD = 0.0000133334;
/** How long a person takes to answer a mid-call question, for the asking part's cost columns (an assumption). */
export const ASSUMED_WAIT_S = 10;
/** Lambda request price, USD per million requests. */
export const PRICE_PER_MILLION_REQUESTS_USD = 0.2;
/** The share of calls that meet a cold start (an assumption for the table: one call in a hundred). */
export const COLD_START_SHARE = 0.01;
/** Lambda's smallest memory setting, and the step this table rounds peak RSS up to. */
const MIN_MEMORY_MB = 128;
const MEMORY_STEP_MB = 64;

export interface CostRow {
  label: string;
  memoryMb: number;
  warmBilledMs: number;
  coldBilledMs: number;
  gbSeconds: number;
  usd: number;
  /** Times cheaper than this row ours is (absent on our own rows). */
  ratio?: number;
}

/** Rows per variant that has warm, cold-start and HTTP figures in the run; empty when a part was skipped. */
export function costTable(results: BenchResults, label: (id: string) => string = (id) => id): CostRow[] {
  if (!results.warm || !results.coldStart || !results.http) return [];
  const rows: (CostRow & { id: string; server: string; era: string })[] = [];
  for (const warm of results.warm) {
    const cold = results.coldStart.find((c) => c.variant.id === warm.variant.id);
    const http = results.http.find((h) => h.variant?.id === warm.variant.id);
    if (!cold || !http) continue;
    const peakMb = http.peakRssBytes / 1024 / 1024;
    const memoryMb = Math.max(MIN_MEMORY_MB, Math.ceil(peakMb / MEMORY_STEP_MB) * MEMORY_STEP_MB);
    const warmBilledMs = Math.ceil(warm.microsPerCall / 1000);
    const coldBilledMs = Math.ceil(cold.codeMs);
    const billedSeconds =
      (1e6 * ((1 - COLD_START_SHARE) * warmBilledMs + COLD_START_SHARE * coldBilledMs)) / 1000;
    const gbSeconds = billedSeconds * (memoryMb / 1024);
    rows.push({
      id: warm.variant.id,
      server: warm.variant.server,
      era: warm.variant.era,
      label: label(warm.variant.id),
      memoryMb,
      warmBilledMs,
      coldBilledMs,
      gbSeconds,
      usd: gbSeconds * PRICE_PER_GB_SECOND_USD + PRICE_PER_MILLION_REQUESTS_USD,
    });
  }
  return rows.map(({ id, server, era, ...row }) => {
    const ours = rows.find((r) => r.server === 'ours' && r.era === era);
    return server === 'ours' || !ours ? row : { ...row, ratio: row.usd / ours.usd };
  });
}
