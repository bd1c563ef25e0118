import {
  StorageError,
  type RangeReader,
  type StorageReader,
  type StorageWriter,
  type StoredObject,
} from './storage.ts';

/** Chunk size of `stream`, about what an HTTP body delivers at a time. */
const CHUNK_BYTES = 64 * 1024;

/** Storage in a Map: for unit tests of the offload policy and for embedding without a bucket. */
export function memoryStorage(): StorageWriter &
  StorageReader &
  Required<Pick<StorageReader, 'getStream'>> &
  RangeReader & { readonly objects: ReadonlyMap<string, StoredObject> } {
  const objects = new Map<string, StoredObject>();
  return {
    objects,
    async put(key, body, attributes, call) {
      if (call?.signal?.aborted) throw new StorageError('put', key, { cause: call.signal.reason });
      objects.set(key, { body: Uint8Array.from(body), ...attributes, metadata: { ...attributes.metadata } });
    },
    async delete(key, call) {
      if (call?.signal?.aborted) throw new StorageError('delete', key, { cause: call.signal.reason });
      objects.delete(key);
    },
    async get(key, call) {
      if (call?.signal?.aborted) throw new StorageError('get', key, { cause: call.signal.reason });
      const object = objects.get(key);
      return object && { ...object, body: Uint8Array.from(object.body) };
    },
    async getStream(key, call) {
      if (call?.signal?.aborted) throw new StorageError('get', key, { cause: call.signal.reason });
      const object = objects.get(key);
      if (!object) return undefined;
      const bytes = object.body;
      const body = (async function* () {
        for (let at = 0; at < bytes.byteLength; at += CHUNK_BYTES)
          yield Uint8Array.from(bytes.subarray(at, Math.min(bytes.byteLength, at + CHUNK_BYTES)));
      })();
      return { contentType: object.contentType, metadata: { ...object.metadata }, body };
    },
    async getRange(key, start, end, call) {
      if (call?.signal?.aborted) throw new StorageError('get', key, { cause: call.signal.reason });
      const object = objects.get(key);
      if (!object) return undefined;
      const totalSize = object.body.byteLength;
      const from = Math.min(start, totalSize);
      const body = Uint8Array.from(object.body.subarray(from, Math.max(from, Math.min(end, totalSize))));
      return { ...object, metadata: { ...object.metadata }, body, start, totalSize };
    },
    async stream(key, start = 0, call) {
      if (call?.signal?.aborted) throw new StorageError('get', key, { cause: call.signal.reason });
      const object = objects.get(key);
      if (!object) return undefined;
      const bytes = object.body;
      return (async function* () {
        for (let at = start; at < bytes.byteLength; at += CHUNK_BYTES)
          yield Uint8Array.from(bytes.subarray(at, Math.min(bytes.byteLength, at + CHUNK_BYTES)));
      })();
    },
  };
}
