/**
 * The load run: a short preflight with plain `fetch` (optional `initialize` / `server/discover`, `tools/list` to
 * find the tool and any mirrored parameters, one `tools/call`), then autocannon firing the same stateless
 * `tools/call` on every connection until the duration or the request count is reached, recording each request's
 * end time, latency and kind (samples.ts) for the report.
 */
import autocannon from 'autocannon';
import { classify, messagesOf, type Classified, type Outcome } from './classify.ts';
import {
  initializeRequest,
  mirroredParams,
  rpcNotification,
  rpcRequest,
  toolCallRequest,
  type MirroredParam,
  type RequestOptions,
  type WireRequest,
} from './mcp-request.ts';
import type { LoadOptions } from './options.ts';
import { RunRecorder } from './samples.ts';

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

/** A preflight failure: the server is unreachable or answers the first requests wrongly. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

async function post(url: string, request: WireRequest, timeoutS: number): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutS * 1000),
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new PreflightError(
      `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function resultOf(answer: Answer, what: string): Record<string, unknown> {
  const messages = messagesOf(answer.headers.get('content-type') ?? undefined, answer.body);
  const response = messages.find(
    (m): m is Record<string, unknown> =>
      typeof m === 'object' && m !== null && ('result' in m || 'error' in m),
  );
  if (answer.status < 200 || answer.status > 299 || !response || !('result' in response)) {
    const error = response?.error as { code?: unknown; message?: unknown } | undefined;
    const rpc = error ? `: ${String(error.code)} ${String(error.message)}` : '';
    throw new PreflightError(`${what} failed with HTTP ${answer.status}${rpc}`);
  }
  return response.result as Record<string, unknown>;
}

const MAX_LIST_PAGES = 50;

/** Finds the tool in `tools/list` (following at most 50 pages) and returns its mirrored parameters. */
async function findTool(options: LoadOptions, base: RequestOptions): Promise<MirroredParam[]> {
  let cursor: string | undefined;
  const seen: string[] = [];
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await post(
      options.url,
      rpcRequest('tools/list', cursor ? { cursor } : {}, base),
      options.timeoutS,
    );
    const result = resultOf(answer, 'tools/list');
    const tools = Array.isArray(result.tools)
      ? (result.tools as { name?: unknown; inputSchema?: unknown }[])
      : [];
    const tool = tools.find((t) => t.name === options.tool);
    if (tool) return mirroredParams(tool.inputSchema);
    seen.push(...tools.map((t) => String(t.name)));
    if (typeof result.nextCursor !== 'string') break;
    cursor = result.nextCursor;
  }
  throw new PreflightError(
    `the server does not list a tool named ${JSON.stringify(options.tool)} (it lists: ${seen.join(', ') || 'none'})`,
  );
}

/** The prepared request and what the preflight learned. */
export interface Prepared {
  request: WireRequest;
  protocolVersion: string;
  /** The preflight call's outcome (an isError result is allowed: it is still an MCP answer). */
  first: Classified;
}

/** Runs the preflight and builds the request the load phase repeats. */
export async function prepare(options: LoadOptions): Promise<Prepared> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let protocolVersion = options.protocolVersion;

  if (options.initialize && options.era === 'legacy') {
    const answer = await post(
      options.url,
      initializeRequest({ headers, ...(protocolVersion ? { protocolVersion } : {}) }),
      options.timeoutS,
    );
    const result = resultOf(answer, 'initialize');
    if (typeof result.protocolVersion === 'string') protocolVersion = result.protocolVersion;
    // A stateful server names a session; carry it so the load also works against one.
    const session = answer.headers.get('mcp-session-id');
    if (session) headers['mcp-session-id'] = session;
    const initialized = rpcNotification(
      'notifications/initialized',
      {},
      {
        era: 'legacy',
        headers,
        ...(protocolVersion ? { protocolVersion } : {}),
      },
    );
    const notified = await post(options.url, initialized, options.timeoutS);
    if (notified.status < 200 || notified.status > 299) {
      throw new PreflightError(`notifications/initialized failed with HTTP ${notified.status}`);
    }
  }
  const base: RequestOptions = { era: options.era, headers, ...(protocolVersion ? { protocolVersion } : {}) };
  if (options.initialize && options.era === 'modern') {
    resultOf(
      await post(options.url, rpcRequest('server/discover', {}, base), options.timeoutS),
      'server/discover',
    );
  }
  const mirrored = await findTool(options, base);
  const request = toolCallRequest(options.tool, options.args, base, mirrored);
  const answer = await post(options.url, request, options.timeoutS);
  const first = classify(answer.status, answer.headers.get('content-type') ?? undefined, answer.body);
  if (first.outcome !== 'ok' && first.outcome !== 'tool-error') {
    throw new PreflightError(`the first tools/call failed: ${first.detail ?? first.outcome}`);
  }
  return {
    request,
    protocolVersion: request.headers['mcp-protocol-version'] ?? protocolVersion ?? '',
    first,
  };
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
  instance.on('reqError', (error) => {
    const timeout = error.message === TIMEOUT_MESSAGE;
    const code = (error as { code?: unknown }).code;
    recorder.record(
      recorder.now(),
      timeout ? 'timeout' : 'transport-error',
      undefined,
      timeout ? `no answer within ${options.timeoutS} s` : typeof code === 'string' ? code : error.message,
    );
  });
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
    for (let i = recorder.ended; i < options.amount; i++) {
      recorder.record(
        recorder.lastAtMs,
        'transport-error',
        undefined,
        'the connection closed before the answer',
      );
    }
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
