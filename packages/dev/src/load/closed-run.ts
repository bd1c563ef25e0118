/**
 * The closed model of a load run: autocannon keeps a number of connections busy, each sending its next request
 * when its answer arrived, until the duration or the request count is reached. It finds the most a server answers
 * (its throughput ceiling); past that, the server sets the pace, so its queueing does not show in the latencies
 * (open-run.ts is the model that shows it).
 */
import type autocannon from 'autocannon';
import { classify, type Classified } from './classify.ts';
import type { LoadOptions } from './options.ts';
import type { Prepared } from './preflight.ts';
import type { RunRecorder } from './samples.ts';

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

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
 * Runs the closed loop with a prepared request, filing every request in `recorder` as it ends; answers the
 * connections it ran on. `signal` stops it early (Ctrl-C).
 */
export async function fireClosed(
  options: LoadOptions,
  prepared: Prepared,
  recorder: RunRecorder,
  signal?: AbortSignal,
): Promise<number> {
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
  return connections;
}
