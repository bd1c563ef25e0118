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

/** Write side (the tools function's permission: put only). */
export interface StorageWriter {
  put(key: string, body: Uint8Array, attributes: ObjectAttributes): Promise<void>;
}

/** Read side (the companion function's permission: get only). `undefined` means no object under that key. */
export interface StorageReader {
  get(key: string): Promise<StoredObject | undefined>;
}

/** Storage failed (unreachable, refused, timed out). The message is for logs; clients get a generic one. */
export class StorageError extends Error {
  constructor(
    readonly operation: 'put' | 'get',
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
