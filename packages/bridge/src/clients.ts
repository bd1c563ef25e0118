import { BridgeLimits } from './limits.ts';
import type { ClientResolution } from './client.ts';
import {
  cacheSeconds,
  isMetadataDocumentId,
  metadataUrlProblem,
  parseMetadataDocument,
} from './metadata-document.ts';
import { fetchMetadataDocument, type MetadataFetchOptions } from './metadata-fetch.ts';
import { openRegisteredClient } from './registration.ts';
import type { Sealer } from './seal.ts';

/** Finds the client behind a client_id: a sealed registration, or a metadata document fetched (and cached). */
export interface ClientDirectory {
  resolve(clientId: string, signal?: AbortSignal): Promise<ClientResolution>;
}

export interface ClientDirectoryOptions {
  sealer: Sealer;
  /** Tests and local development only: CIMD documents may live on loopback (default false). */
  allowLoopbackMetadata?: boolean;
  /** Tests only: extra CA certificates (PEM) trusted for CIMD fetches. */
  metadataCa?: string;
  /** Swaps the fetch (unit tests). */
  fetchDocument?: (url: string, options: MetadataFetchOptions) => ReturnType<typeof fetchMetadataDocument>;
  /** Epoch ms (tests). */
  now?: () => number;
}

interface CacheEntry {
  expiresAt: number;
  resolution: ClientResolution;
}

/**
 * A directory with a bounded per-container cache of metadata documents: entries live as long as the document's
 * Cache-Control allows (capped), failures for a short while, so a slow or broken URL is not fetched again on every
 * attempt; the least recently used entry goes first when the cache is full.
 */
export function createClientDirectory(options: ClientDirectoryOptions): ClientDirectory {
  const now = options.now ?? Date.now;
  const fetchDocument = options.fetchDocument ?? fetchMetadataDocument;
  const cache = new Map<string, CacheEntry>();
  const pending = new Map<string, Promise<ClientResolution>>();

  const remember = (clientId: string, resolution: ClientResolution, seconds: number) => {
    if (seconds <= 0) return;
    cache.delete(clientId);
    cache.set(clientId, { expiresAt: now() + seconds * 1000, resolution });
    while (cache.size > BridgeLimits.cimdCacheEntries) cache.delete(cache.keys().next().value!);
  };

  async function fetchClient(clientId: string, signal?: AbortSignal): Promise<ClientResolution> {
    const result = await fetchDocument(clientId, {
      timeoutMs: BridgeLimits.cimdTimeoutMs,
      maxBytes: BridgeLimits.cimdMaxBytes,
      ...(signal ? { signal } : {}),
      ...(options.allowLoopbackMetadata ? { allowLoopback: true } : {}),
      ...(options.metadataCa ? { ca: options.metadataCa } : {}),
    });
    if (!result.ok) {
      const resolution: ClientResolution = {
        ok: false,
        problem: { error: 'invalid_client', description: result.reason, temporary: true },
      };
      remember(clientId, resolution, BridgeLimits.cimdFailureCacheSeconds);
      return resolution;
    }
    const parsed = parseMetadataDocument(clientId, result.body);
    const resolution: ClientResolution = parsed.ok
      ? { ok: true, client: parsed.client }
      : { ok: false, problem: { error: 'invalid_client', description: parsed.description } };
    remember(
      clientId,
      resolution,
      parsed.ok ? cacheSeconds(result.cacheControl) : BridgeLimits.cimdFailureCacheSeconds,
    );
    return resolution;
  }

  return {
    async resolve(clientId, signal) {
      if (!clientId)
        return { ok: false, problem: { error: 'invalid_request', description: 'client_id is missing' } };
      if (!isMetadataDocumentId(clientId)) {
        const client = openRegisteredClient(clientId, options.sealer);
        return client
          ? { ok: true, client }
          : {
              ok: false,
              problem: { error: 'invalid_client', description: 'the client_id is not known here' },
            };
      }
      const problem = metadataUrlProblem(clientId);
      if (problem) return { ok: false, problem: { error: 'invalid_client', description: problem } };
      const cached = cache.get(clientId);
      if (cached && cached.expiresAt > now()) {
        cache.delete(clientId);
        cache.set(clientId, cached);
        return cached.resolution;
      }
      cache.delete(clientId);
      // Concurrent requests for one document share a single fetch.
      let inflight = pending.get(clientId);
      if (!inflight) {
        inflight = fetchClient(clientId, signal).finally(() => pending.delete(clientId));
        pending.set(clientId, inflight);
      }
      return inflight;
    },
  };
}
