/**
 * The load run: the preflight (preflight.ts), then autocannon firing the same stateless `tools/call` on every
 * connection until the duration or the request count is reached, filing each request's end time, latency and kind
 * (samples.ts) for the reports.
 */
import type autocannon from 'autocannon';
import { classify, type Classified, type Outcome } from './classify.ts';
import type { LoadOptions } from './options.ts';
import { prepare, type Prepared } from './preflight.ts';
import { RunRecorder } from './samples.ts';

export type { Prepared } from './preflight.ts';

/** Latency percentiles in milliseconds. */
export interface Latency {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** What a load run measured. */
export interface LoadReport {
  url: string;
  tool: string;
  era: LoadOptions['era'];
  protocolVersion: string;
  connections: number;
  /** Seconds from the start of the load phase to the last request's end (high-resolution clock). */
  durationS: number;
  /** Answers received. */
  requests: number;
  /** Answers per second over `durationS`. */
  requestsPerSecond: number;
  /** Latencies of the answers (within 2 %, see samples.ts), whatever their kind. */
  latencyMs: Latency;
  /** Socket errors and timeouts (requests that got no answer). */
  errors: number;
  timeouts: number;
  /** Answers by kind: `ok` and `tool-error` (isError) are MCP results, the others are failures. */
  outcomes: Record<Outcome, number>;
  /** The first answer of each failing kind, to show what went wrong. */
  samples: Partial<Record<Outcome, string>>;
  /** Whether every request got a 2xx JSON-RPC result. */
  passed: boolean;
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** autocannon's error for a request that got no answer in time (it has no code). */
const TIMEOUT_MESSAGE = 'request timed out';

/** Files a request that got no answer: a timeout, or the connection's error code. */
function fileError(recorder: RunRecorder, error: Error, timeoutS: number): void {
  const code = (error as { code?: unknown }).code;
  if (error.message === TIMEOUT_MESSAGE) {
    recorder.record(recorder.now(), 'timeout', undefined, `no answer within ${timeoutS} s`);
  } else {
    recorder.record(
      recorder.now(),
      'transport-error',
      undefined,
      typeof code === 'string' ? code : error.message,
    );
  }
}

/**
 * Runs the load phase with a prepared request, filing every request in `recorder` as it ends. `signal` stops it
 * early (Ctrl-C).
 */
export async function fire(
  options: LoadOptions,
  prepared: Prepared,
  signal?: AbortSignal,
  recorder = new RunRecorder(),
): Promise<LoadReport> {
  // autocannon refuses more connections than requests; the command line already lowers them with a notice.
  const connections =
    options.amount !== undefined ? Math.min(options.connections, options.amount) : options.connections;
  // autocannon hands the body to `onResponse` and, synchronously right after, the latency to its 'response'
  // event: the classification waits here for its latency.
  let answer: Classified | undefined;
  let instance!: autocannon.Instance;
  // Loaded when a run starts: the request builders and the classification share this module's face, and what
  // imports only them (a benchmark's child process) need not load the load generator.
  const { default: autocannon } = await import('autocannon');
  recorder.start();
  const done = new Promise<void>((resolve, reject) => {
    instance = autocannon(
      {
        url: options.url,
        connections,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationS }),
        timeout: options.timeoutS,
        // autocannon notices the end of a run at its next sample tick; its own samples are unused here, so tick
        // often and stop within 0.1 s instead of up to 1 s.
        sampleInt: 100,
        requests: [
          {
            method: 'POST',
            headers: prepared.request.headers,
            body: prepared.request.body,
            onResponse: (status, body, _context, headers) => {
              answer = classify(
                status,
                headerValue(headers as Record<string, unknown>, 'content-type'),
                body,
              );
            },
          },
        ],
      },
      (error) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve()),
    );
  });
  instance.on('response', (_client, _status, _bytes, latencyMs) => {
    const { outcome, detail } = answer ?? { outcome: 'malformed' as const, detail: 'no body seen' };
    recorder.record(recorder.now(), outcome, latencyMs, detail);
    answer = undefined;
  });
  instance.on('reqError', (error: Error) => fileError(recorder, error, options.timeoutS));
  const stop = () => instance.stop();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await done;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  // autocannon reconnects without a word when a server closes a connection with a request in flight. With
  // --amount every request sent is known, so those that ended neither as an answer nor as an error were lost.
  if (options.amount !== undefined && !signal?.aborted) {
    recorder.fileMissing(options.amount, 'the connection closed before the answer');
  }
  return summarize(recorder, {
    url: options.url,
    tool: options.tool,
    era: options.era,
    protocolVersion: prepared.protocolVersion,
    connections,
  });
}

/** Who was loaded and how: the part of a report the recording does not hold. */
export type RunTarget = Pick<LoadReport, 'url' | 'tool' | 'era' | 'protocolVersion' | 'connections'>;

/** The report of a recorded run: the rate over the real elapsed time, percentiles from the recorded latencies. */
export function summarize(recorder: RunRecorder, target: RunTarget): LoadReport {
  const { counts, latency } = recorder;
  const outcomes: Record<Outcome, number> = {
    ok: counts.ok,
    'tool-error': counts['tool-error'],
    'rpc-error': counts['rpc-error'],
    'non-2xx': counts['non-2xx'],
    malformed: counts.malformed,
  };
  const samples: Partial<Record<Outcome, string>> = {};
  for (const outcome of Object.keys(outcomes) as Outcome[]) {
    const detail = recorder.details[outcome];
    if (outcome !== 'ok' && detail !== undefined) samples[outcome] = detail;
  }
  const errors = counts.timeout + counts['transport-error'];
  const failures = errors + counts['rpc-error'] + counts['non-2xx'] + counts.malformed;
  const answered = recorder.answered;
  return {
    ...target,
    durationS: round(recorder.elapsedS, 3),
    requests: answered,
    requestsPerSecond: round(recorder.requestsPerSecond, 1),
    latencyMs: {
      p50: round(latency.percentile(50)),
      p90: round(latency.percentile(90)),
      p99: round(latency.percentile(99)),
      max: round(latency.maxMs),
      mean: round(latency.meanMs),
    },
    errors,
    timeouts: counts.timeout,
    outcomes,
    samples,
    passed: failures === 0 && answered > 0,
  };
}

/** Preflight, then load: the whole `npm run load`. */
export async function runLoad(
  options: LoadOptions,
  signal?: AbortSignal,
  recorder = new RunRecorder(),
): Promise<LoadReport> {
  return fire(options, await prepare(options), signal, recorder);
}
