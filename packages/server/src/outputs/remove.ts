import type { StorageWriter } from '../storage/storage.ts';
import { ownerTag } from './object-info.ts';
import { MAX_PARTS, outputKey, outputUriParser } from './uri.ts';

/** Deletes run this many at a time: S3 answers each in milliseconds, and DELETE requests cost nothing. */
const CONCURRENCY = 10;

/** Whose output is removed, and until when the removal may run. */
export interface RemoveContext {
  /** The caller's opaque key, when authorization is on: only keys in that caller's own space are touched. */
  principal?: string;
  signal?: AbortSignal;
}

/**
 * Deletes a stored output: the object of a whole output and every object a multi-part one may have (the writer may
 * not read, so it cannot ask how many parts there are; deleting a key that is not there is no error). Any part's
 * URI names the whole output. Keys are rebuilt from the parsed URI inside the caller's key space, as for a read, so
 * nothing outside the prefix, or another caller's, can be named. Returns false for a URI that is not a stored
 * output's; storage failures throw (`StorageError`).
 */
export async function removeStoredOutput(
  storage: StorageWriter,
  prefix: string,
  uri: string,
  ctx: RemoveContext,
): Promise<boolean> {
  const address = outputUriParser(prefix)(uri);
  if (!address || !storage.delete) return false;
  const owner = ownerTag(ctx.principal);
  const keys = [
    outputKey(prefix, { id: address.id }, owner),
    ...Array.from({ length: MAX_PARTS }, (_, i) => outputKey(prefix, { id: address.id, part: i + 1 }, owner)),
  ];
  const remove = storage.delete.bind(storage);
  for (let at = 0; at < keys.length; at += CONCURRENCY)
    await Promise.all(keys.slice(at, at + CONCURRENCY).map((key) => remove(key, { signal: ctx.signal })));
  return true;
}
