import { MAX_JSON_DEPTH } from '../limits.ts';
import { nestsDeeperThan } from '../protocol/json.ts';
import { outboundCall } from '../outbound.ts';

/** Fetching small JSON documents from an issuer (its metadata and its keys), bounded in time, size and depth. */

/** The subset of `fetch` used here, so tests and other runtimes can supply their own. */
export type FetchLike = (
  url: string,
  init: { signal: AbortSignal; redirect: 'error'; headers: Record<string, string> },
) => Promise<Response>;

/** Limits for one fetch. */
export interface RemoteJsonOptions {
  fetch?: FetchLike;
  /** Give up after this many ms. Default 3,000 (the JWKS fetch happens inside a client's request). */
  timeoutMs?: number;
  /** Refuse documents larger than this. Default 256 KiB (a key set with a few keys is a few KB). */
  maxBytes?: number;
}

/** Fetches a JSON object with GET; throws an Error naming the URL and the reason on any failure. */
export async function fetchJsonObject(
  url: string,
  options: RemoteJsonOptions = {},
): Promise<Record<string, unknown>> {
  const maxBytes = options.maxBytes ?? 256 * 1024;
  const fetchImpl: FetchLike = options.fetch ?? ((u, init) => fetch(u, init));
  // One signal for the request and the body's reading, which `readBoundedText` stops on it itself.
  const signal = AbortSignal.timeout(options.timeoutMs ?? 3_000);
  // The span covers the whole exchange, the body's reading included: a body too large or cut short fails it.
  const answer = await outboundCall({ method: 'GET', url }, async () => {
    let response: Response;
    try {
      // Redirects are refused: a document must come from the URL that was configured or published.
      response = await fetchImpl(url, { signal, redirect: 'error', headers: { accept: 'application/json' } });
    } catch (error) {
      throw new Error(`GET ${url} ${failure(error)}`, { cause: error });
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return { status: response.status, text: undefined };
    }
    return { status: 200, text: await readBounded(response, maxBytes, url, signal) };
  });
  if (answer.text === undefined) throw new Error(`GET ${url} answered ${answer.status}`);
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    throw new Error(`GET ${url} did not return JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`GET ${url} did not return a JSON object`);
  // Its readers walk it (as a key set's keys are): no deeper than any client message may nest.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    throw new Error(`GET ${url} returned JSON nested more than ${MAX_JSON_DEPTH} levels deep`);
  return value as Record<string, unknown>;
}

const failure = (error: unknown) =>
  error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'failed';

async function readBounded(response: Response, maxBytes: number, url: string, signal: AbortSignal) {
  let text: string | undefined;
  try {
    text = await readBoundedText(response, maxBytes, signal);
  } catch (error) {
    throw new Error(`GET ${url} ${failure(error)}`, { cause: error });
  }
  if (text === undefined) throw new Error(`GET ${url} returned more than ${maxBytes} bytes`);
  return text;
}

/**
 * A response's body as UTF-8 text, or undefined when it is longer than `maxBytes`: counted as the bytes arrive
 * (after any content decoding), so neither a long body nor a compressed one is ever held whole. Rejects with the
 * signal's reason once `signal` aborts, cancelling the body itself: the signal given to fetch does not reliably
 * reach a body still arriving (Node 22's fetch, with `redirect: 'error'`, can lose that link at a garbage
 * collection), and a body that trickles in would then outlive every time limit, and hold its call open.
 */
export async function readBoundedText(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (signal.aborted || Number(response.headers.get('content-length') ?? NaN) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    signal.throwIfAborted();
    return undefined;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const stop = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled reader ends as if the body had: only the signal tells a cut from an end.
      signal.throwIfAborted();
      if (done) return Buffer.concat(chunks).toString('utf8');
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
