import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { nestsDeeperThan, outboundCall } from '@mcp-lambda/server/auth';
import { MAX_JSON_DEPTH } from '@mcp-lambda/server/limits';
import { isAllowedAddress } from './address-policy.ts';

/**
 * Fetches a Client ID Metadata Document: the one outbound request a client can point the bridge at, so it is an
 * SSRF surface. GET over https only; every address the name resolves to must be public (checked after DNS, and
 * the connection uses exactly the checked addresses, so a second lookup cannot swap in another); redirects are
 * never followed (a document must live at its own URL); the whole exchange has a time limit and the body a size cap.
 */

export interface MetadataFetchOptions {
  /** Give up after this many ms (DNS, connect, TLS and body together). */
  timeoutMs: number;
  /** Refuse bodies larger than this. */
  maxBytes: number;
  /** Also abort when this signal fires (the invocation deadline). */
  signal?: AbortSignal;
  /** Tests and local development only: allow loopback addresses (never set in a deployed stack). */
  allowLoopback?: boolean;
  /** Tests only: extra trusted CA certificates (PEM) for a document served on loopback. */
  ca?: string;
}

/**
 * What a fetch came to. `status` (when a response arrived) and `errorType` (a fixed word, never the reason's text)
 * are what its trace span records.
 */
export type MetadataFetchResult =
  | { ok: true; body: unknown; cacheControl: string | undefined; status: number }
  | { ok: false; reason: string; errorType: string; status?: number };

/** A DNS lookup that fails unless every resolved address is allowed, and hands the socket only those. */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0 || !addresses.every((a) => isAllowedAddress(a.address, { allowLoopback })))
        return callback(Object.assign(new Error('refused address'), { code: 'EREFUSEDADDRESS' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

type Finish = (result: MetadataFetchResult) => void;

/** Reads a response within the limits: 200 only (a redirect is refused), JSON only, at most `maxBytes`. */
function readResponse(res: IncomingMessage, maxBytes: number, finish: Finish): void {
  const status = res.statusCode ?? 0;
  const tooLarge = `the client metadata document is larger than ${maxBytes} bytes`;
  const failed = (reason: string, errorType: string) => finish({ ok: false, reason, errorType, status });
  if (status >= 300 && status < 400)
    return failed('the client metadata document URL redirects; redirects are not followed', String(status));
  if (status !== 200) return failed(`the client metadata document URL answered ${status}`, String(status));
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/.test(type))
    return failed('the client metadata document is not served as application/json', 'not_json');
  if (Number(res.headers['content-length'] ?? 0) > maxBytes) return failed(tooLarge, 'too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) return failed(tooLarge, 'too_large');
    chunks.push(chunk);
  });
  res.on('error', () => failed('reading the client metadata document failed', 'read_failed'));
  res.on('end', () => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return failed('the client metadata document is not valid JSON', 'not_json');
    }
    if (nestsDeeperThan(body, MAX_JSON_DEPTH))
      return failed(`the client metadata document nests more than ${MAX_JSON_DEPTH} levels deep`, 'too_deep');
    const cacheControl = res.headers['cache-control'];
    finish({
      ok: true,
      body,
      cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
      status,
    });
  });
}

/** GETs `url` (already checked by `metadataUrlProblem`) within the limits; never throws. */
export function fetchMetadataDocument(
  url: string,
  options: MetadataFetchOptions,
): Promise<MetadataFetchResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const allowLoopback = options.allowLoopback === true;
  if (isIP(host) && !isAllowedAddress(host, { allowLoopback }))
    return Promise.resolve({
      ok: false,
      reason: 'the client_id URL points at a private or reserved address',
      errorType: 'refused_address',
    });

  return outboundCall({ method: 'GET', url }, () => guardedGet(target, host, options));
}

/** The GET itself, to the address `guardedLookup` allows; settles once, with the document or the reason. */
function guardedGet(target: URL, host: string, options: MetadataFetchOptions): Promise<MetadataFetchResult> {
  const allowLoopback = options.allowLoopback === true;
  return new Promise((resolve) => {
    let settled = false;
    const finish: Finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(result);
    };
    const onAbort = () =>
      finish({ ok: false, reason: 'fetching the client metadata document timed out', errorType: 'timeout' });
    const timer = setTimeout(onAbort, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const req = request(
      {
        protocol: 'https:',
        hostname: host,
        port: target.port || 443,
        path: target.pathname,
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'mcp-authorization-bridge' },
        lookup: guardedLookup(allowLoopback),
        ...(isIP(host) ? {} : { servername: host }),
        ...(options.ca ? { ca: options.ca } : {}),
        agent: false,
      },
      (res) => readResponse(res, options.maxBytes, finish),
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        error.code === 'EREFUSEDADDRESS'
          ? {
              ok: false,
              reason: 'the client_id URL resolves to a private or reserved address',
              errorType: 'refused_address',
            }
          : {
              ok: false,
              reason: 'the client metadata document could not be fetched',
              errorType: 'fetch_failed',
            },
      ),
    );
    req.end();
    if (options.signal?.aborted) onAbort();
  });
}
