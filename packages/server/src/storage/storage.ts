/**
 * The storage the offload feature needs, as two small interfaces: the tools function only writes, the companion
 * resources function only reads. The core never sees the AWS SDK; `s3.ts` implements both over S3.
 */

/** What is written beside an object's bytes: its content type and string metadata (S3 user metadata). */
export interface ObjectAttributes {
  contentType: string;
  metadata: Readonly<Record<string, string>>;
}

/** An object read back: its bytes and the attributes it was written with. */
export interface StoredObject extends ObjectAttributes {
  body: Uint8Array;
}

/** Per-call options of a storage operation. */
export interface StorageCallOptions {
  /** Aborts the call (the invocation's deadline, or the failure of a sibling write); it then fails. */
  signal?: AbortSignal;
}

/** Write side (the tools function's permission: put, and delete under the same prefix). */
export interface StorageWriter {
  put(
    key: string,
    body: Uint8Array,
    attributes: ObjectAttributes,
    options?: StorageCallOptions,
  ): Promise<void>;
  /**
   * Removes an object (no error when there is none). Optional: used, best effort, to remove the parts already
   * written of an output whose store failed part-way; without it they stay until the bucket expires them.
   */
  delete?(key: string, options?: StorageCallOptions): Promise<void>;
}

/** An object read as a stream: its attributes first, then its bytes chunk by chunk. */
export interface StoredObjectStream extends ObjectAttributes {
  body: AsyncIterable<Uint8Array>;
}

/** Read side (the companion function's permission: get only). `undefined` means no object under that key. */
export interface StorageReader {
  get(key: string, options?: StorageCallOptions): Promise<StoredObject | undefined>;
  /**
   * The same read as a stream (optional, preferred when present): a reader checks the attributes before any byte
   * and holds one chunk of the raw bytes at a time. A caller that stops early must end the iteration (`return()`),
   * which releases the connection.
   */
  getStream?(key: string, options?: StorageCallOptions): Promise<StoredObjectStream | undefined>;
}

/** A byte range read back: bytes [start, start + body.byteLength) of the object, its attributes and total size. */
export interface StoredRange extends StoredObject {
  /** Offset of `body` in the object. */
  start: number;
  /** Byte size of the whole object. */
  totalSize: number;
}

/**
 * Read side for paging through large objects (still get only): byte ranges and chunk streams, so that one page of
 * a large object never loads the whole object. `undefined` means no object under that key.
 */
export interface RangeReader {
  /**
   * Bytes [start, end) of an object, clipped to its size (empty when `start` is at or past the end, or `end` is
   * not after `start`), with its attributes and total size.
   */
  getRange(
    key: string,
    start: number,
    end: number,
    options?: StorageCallOptions,
  ): Promise<StoredRange | undefined>;
  /**
   * The object's bytes from `start` to its end, chunk by chunk: a scan holds one chunk at a time. The signal covers
   * the reading of the chunks too.
   */
  stream(
    key: string,
    start?: number,
    options?: StorageCallOptions,
  ): Promise<AsyncIterable<Uint8Array> | undefined>;
}

/** Storage failed (unreachable, refused, timed out). The message is for logs; clients get a generic one. */
export class StorageError extends Error {
  constructor(
    readonly operation: 'put' | 'get' | 'delete',
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`storage ${operation} failed for ${key}: ${describeCause(options?.cause)}`, options);
    this.name = 'StorageError';
  }
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) return `${cause.name}: ${cause.message}`;
  return String(cause);
}
