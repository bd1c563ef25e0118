/**
 * What the benchmark's child processes are told and what they report back. Children write one JSON line to file
 * descriptor 3 (cold start, warm) or talk over the IPC channel (serve); stdout stays free for the functions' logs.
 */
import type { Outcome, WireRequest } from '@mcp-lambda/dev/load';

/** Input of the cold-start and warm children (argv[3], JSON). */
export interface ProbeSpec {
  request: WireRequest;
  /** Warm child only: untimed calls first, then timed calls for `durationMs`. */
  warmupCalls?: number;
  durationMs?: number;
}

/** Cold-start child report; times are ms since the process started (`performance.now()`). */
export interface ColdStartReport {
  /** When the runner's own code began (Node bootstrap before it). */
  started: number;
  /** When the function module finished loading (its init code included). */
  imported: number;
  /** When the first tools/call was answered. */
  answered: number;
  outcome: Outcome;
  detail?: string;
}

/** Warm child report. */
export interface WarmReport {
  calls: number;
  elapsedMs: number;
  /** Calls whose answer was checked and was not a plain result. */
  failures: number;
  checked: number;
  detail?: string;
}

/** Messages the serve child answers over IPC. */
export type ServeCommand = { type: 'stats'; gc: boolean; resetPeak?: boolean } | { type: 'stop' };

/** Serve child messages. */
export type ServeMessage =
  | { type: 'listening'; url: string }
  | {
      type: 'stats';
      rssBytes: number;
      maxRssBytes: number;
      heapUsedBytes: number;
      /** Peak RSS since the last `resetPeak` (Linux VmHWM); the lifetime peak where that is not available. */
      windowPeakRssBytes: number;
    }
  | { type: 'error'; message: string };
