import { s3Access, isMissing, noBody, storageChunks, type S3StorageOptions } from './s3.ts';
import { StorageError, type RangeReader, type StorageCallOptions, type StoredRange } from './storage.ts';

/** S3 answers 416 InvalidRange for a range that starts past the end of the object (or any range of an empty one). */
const isInvalidRange = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'InvalidRange' || e?.$metadata?.httpStatusCode === 416;
};

/** The total size in a `Content-Range: bytes a-b/total` header. */
const totalOf = (contentRange: string | undefined): number | undefined => {
  const m = /\/(\d+)$/.exec(contentRange ?? '');
  return m ? Number(m[1]) : undefined;
};

/**
 * Ranged reads and streams over S3: GetObject with a `Range` header, the same s3:GetObject permission as a whole
 * read. Only the companion function reads pages, so only its bundle carries this module.
 */
export function s3RangeReader(options: S3StorageOptions): RangeReader {
  const load = s3Access(options);
  const read = async (
    key: string,
    range: string | undefined,
    call?: StorageCallOptions,
  ): Promise<StoredRange> => {
    const { sdk, client } = await load();
    // The signal covers the body too: the request is only released once the body has been read.
    const out = await client.send(
      new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key, ...(range ? { Range: range } : {}) }),
      { abortSignal: call?.signal },
    );
    const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    const start = Number(/^bytes=(\d+)/.exec(range ?? '')?.[1] ?? 0);
    const totalSize = totalOf(out.ContentRange) ?? body.byteLength;
    return { body, start, totalSize, contentType: out.ContentType ?? '', metadata: out.Metadata ?? {} };
  };
  /** An object's attributes and size from its first byte; an empty object (no byte to range over) read whole. */
  const facts = async (key: string, call?: StorageCallOptions): Promise<StoredRange> => {
    try {
      return await read(key, 'bytes=0-0', call);
    } catch (error) {
      if (!isInvalidRange(error)) throw error;
      return read(key, undefined, call);
    }
  };
  return {
    async getRange(key, start, end, call) {
      try {
        try {
          // An empty range still reads one byte: HTTP has no zero-length range, and the attributes come with it.
          const range = await read(key, `bytes=${start}-${Math.max(start, end - 1)}`, call);
          return end > start ? range : { ...range, body: new Uint8Array() };
        } catch (error) {
          if (!isInvalidRange(error)) throw error;
          // The range starts at or past the end (or the object is empty): an empty range with the object's facts.
          return { ...(await facts(key, call)), body: new Uint8Array(), start };
        }
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw new StorageError('get', key, { cause: error });
      }
    },
    async stream(key, start = 0, call) {
      try {
        const { sdk, client } = await load();
        const out = await client.send(
          new sdk.GetObjectCommand({
            Bucket: options.bucket,
            Key: key,
            ...(start > 0 ? { Range: `bytes=${start}-` } : {}),
          }),
          { abortSignal: call?.signal },
        );
        return storageChunks((out.Body ?? noBody()) as AsyncIterable<Uint8Array>, key);
      } catch (error) {
        if (isMissing(error)) return undefined;
        if (isInvalidRange(error)) return storageChunks(noBody(), key);
        throw new StorageError('get', key, { cause: error });
      }
    },
  };
}
