import type { StorageReader, StorageWriter, StoredObject } from './storage.ts';

/** Storage in a Map: for unit tests of the offload policy and for embedding without a bucket. */
export function memoryStorage(): StorageWriter &
  StorageReader & { readonly objects: ReadonlyMap<string, StoredObject> } {
  const objects = new Map<string, StoredObject>();
  return {
    objects,
    async put(key, body, attributes) {
      objects.set(key, { body: Uint8Array.from(body), ...attributes, metadata: { ...attributes.metadata } });
    },
    async get(key) {
      const object = objects.get(key);
      return object && { ...object, body: Uint8Array.from(object.body) };
    },
  };
}
