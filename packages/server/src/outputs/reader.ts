import { nodeCrypto } from '../crypto.ts';
import { errorFields, type Logger } from '../log.ts';
import { fromStored, OUTPUT_META_KEY, ownerTag, type OutputObjectInfo } from './object-info.ts';
import { hasOutputScheme, outputKey, outputUriParser } from './uri.ts';
import { OutputUnavailableError } from '../protocol/errors.ts';
import type { ResourceContents } from '../protocol/types.ts';
import {
  StorageError,
  type StorageCallOptions,
  type StorageReader,
  type StoredObjectStream,
} from '../storage/storage.ts';
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

/** The bytes did not match the object's metadata (size or SHA-256). */
class CorruptOutputError extends Error {}

/** Opens an object as a stream: the storage's own streamed read, or a whole read as one chunk. */
async function open(
  storage: StorageReader,
  key: string,
  call: StorageCallOptions,
): Promise<StoredObjectStream | undefined> {
  if (storage.getStream) return storage.getStream(key, call);
  const object = await storage.get(key, call);
  if (!object) return undefined;
  const { body, ...attributes } = object;
  return {
    ...attributes,
    body: (async function* () {
      yield body;
    })(),
  };
}

/** Ends a stream that will not be read (releasing its connection). */
async function close(object: StoredObjectStream | undefined): Promise<void> {
  await object?.body[Symbol.asyncIterator]().return?.();
}

/**
 * Reads an object's bytes as they arrive, hashing them on the way and decoding them into what `resources/read`
 * returns (text, or base64 for binary), so the raw bytes are never held whole beside their decoded form.
 */
async function decodeBody(
  body: AsyncIterable<Uint8Array>,
  info: OutputObjectInfo,
): Promise<{ text: string } | { blob: string }> {
  const hash = nodeCrypto().createHash('sha256');
  const pieces: string[] = [];
  const decoder = new TextDecoder('utf-8');
  let carry = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > info.size) throw new CorruptOutputError('longer than its metadata says');
    hash.update(chunk);
    if (info.encoding === 'utf-8') pieces.push(decoder.decode(chunk, { stream: true }));
    else {
      // Base64 in whole groups of 3 bytes; the rest waits for the next chunk.
      const bytes = carry.length ? Buffer.concat([carry, chunk]) : Buffer.from(chunk);
      const whole = bytes.length - (bytes.length % 3);
      pieces.push(bytes.toString('base64', 0, whole));
      carry = Buffer.from(bytes.subarray(whole));
    }
  }
  if (size !== info.size || hash.digest('hex') !== info.sha256)
    throw new CorruptOutputError('size or SHA-256 does not match the object metadata');
  if (info.encoding === 'utf-8') return { text: pieces.join('') + decoder.decode() };
  return { blob: pieces.join('') + carry.toString('base64') };
}

/**
 * Serves `resources/read` for stored tool outputs straight from storage (locally, in tests, and inside the
 * companion resources function). It owns the whole `mcp-output:` scheme, validates each URI strictly before any
 * storage access, and answers unknown, malformed, expired, foreign and other callers' URIs alike: `undefined`,
 * which the dispatcher turns into the era's not-found error. The object is streamed: its metadata is checked
 * before any byte is read, and its bytes are hashed and decoded as they arrive.
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
      const call = ctx.signal ? { signal: ctx.signal } : {};
      let object: StoredObjectStream | undefined;
      let body: { text: string } | { blob: string };
      let info: OutputObjectInfo | undefined;
      const at = now();
      try {
        object = await open(options.storage, outputKey(options.prefix, address, owner), call);
        info = object && fromStored(object);
        if (!object || !info || info.expiresAt <= at || info.owner !== owner) {
          await close(object);
          return undefined;
        }
        body = await decodeBody(object.body, info);
      } catch (error) {
        if (error instanceof CorruptOutputError) logFailure(ctx.log, uri, error, 'stored output corrupt');
        else if (error instanceof StorageError) logFailure(ctx.log, uri, error, 'stored output read failed');
        else throw error;
        await close(object);
        throw new OutputUnavailableError(ctx.requestId);
      }
      const content: ResourceContents = {
        uri,
        mimeType: info.mimeType,
        _meta: {
          [OUTPUT_META_KEY]: {
            size: info.size,
            sha256: info.sha256,
            expiresAt: new Date(info.expiresAt).toISOString(),
          },
        },
        ...body,
      };
      // Stored outputs never change until they expire, and belong to one caller: cache them privately until then.
      return {
        contents: [content],
        cache: { ttlMs: Math.max(0, Math.floor(info.expiresAt - at)), cacheScope: 'private' },
      };
    },
  };
}
