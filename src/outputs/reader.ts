import { errorFields, type Logger } from '../log.ts';
import { fromStored, ownerTag, sha256Hex } from './object-info.ts';
import { OUTPUT_META_KEY } from './summary.ts';
import { hasOutputScheme, outputKey, outputUriParser } from './uri.ts';
import { OutputUnavailableError } from '../protocol/errors.ts';
import type { ResourceContents } from '../protocol/types.ts';
import { StorageError, type StorageReader } from '../storage/storage.ts';
import type { ResourceContext, ResourceProvider, ResourceReadResult } from '../resources/provider.ts';

/** Where stored outputs are read from. */
export interface StoredOutputsOptions {
  storage: StorageReader;
  /** The key prefix outputs were written under (the same as the offloader's). */
  prefix: string;
  /** Clock (tests). */
  now?: () => number;
}

function logFailure(log: Logger, uri: string, error: unknown, what: string) {
  log.error(what, { uri, error: errorFields(error) });
}

/**
 * Serves `resources/read` for stored tool outputs straight from storage (locally, in tests, and inside the
 * companion resources function). It owns the whole `mcp-output:` scheme, validates each URI strictly before any
 * storage access, and answers unknown, malformed, expired, foreign and other callers' URIs alike: `undefined`,
 * which the dispatcher turns into the era's not-found error.
 */
export function storedOutputs(options: StoredOutputsOptions): ResourceProvider {
  const parse = outputUriParser(options.prefix);
  const now = options.now ?? Date.now;
  return {
    owns: hasOutputScheme,
    async read(uri: string, ctx: ResourceContext): Promise<ResourceReadResult | undefined> {
      const address = parse(uri);
      if (!address) return undefined;
      // The caller's owner tag is part of the key: another caller's object is not even addressable.
      const owner = ownerTag(ctx.principal);
      let object;
      try {
        object = await options.storage.get(outputKey(options.prefix, address, owner), {
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
      } catch (error) {
        if (!(error instanceof StorageError)) throw error;
        logFailure(ctx.log, uri, error, 'stored output read failed');
        throw new OutputUnavailableError(ctx.requestId);
      }
      const info = object && fromStored(object);
      if (!object || !info) return undefined;
      const at = now();
      if (info.expiresAt <= at) return undefined;
      if (info.owner !== owner) return undefined;
      if (object.body.byteLength !== info.size || sha256Hex(object.body) !== info.sha256) {
        logFailure(
          ctx.log,
          uri,
          new Error('size or SHA-256 does not match the object metadata'),
          'stored output corrupt',
        );
        throw new OutputUnavailableError(ctx.requestId);
      }
      const body = Buffer.from(object.body.buffer, object.body.byteOffset, object.body.byteLength);
      const base = {
        uri,
        mimeType: info.mimeType,
        _meta: {
          [OUTPUT_META_KEY]: {
            size: info.size,
            sha256: info.sha256,
            expiresAt: new Date(info.expiresAt).toISOString(),
          },
        },
      };
      const content: ResourceContents =
        info.encoding === 'utf-8'
          ? { ...base, text: body.toString('utf8') }
          : { ...base, blob: body.toString('base64') };
      // Stored outputs never change until they expire, and belong to one caller: cache them privately until then.
      return {
        contents: [content],
        cache: { ttlMs: Math.max(0, Math.floor(info.expiresAt - at)), cacheScope: 'private' },
      };
    },
  };
}
