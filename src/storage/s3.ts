import type { S3Client } from '@aws-sdk/client-s3';
import {
  StorageError,
  type RangeReader,
  type StorageReader,
  type StorageWriter,
  type StoredRange,
} from './storage.ts';

/** Where the objects live and how to reach the service. */
export interface S3StorageOptions {
  bucket: string;
  /**
   * Endpoint of an S3-compatible server (local development and tests). Setting it also switches to path-style
   * addressing and to checksums only where required, which local servers need. Default: the AWS endpoint.
   */
  endpoint?: string;
  /** Default: the `AWS_REGION` of the environment, or us-east-1 with a custom endpoint. */
  region?: string;
  /** Default: the SDK's provider chain (the Lambda role, or `AWS_*` variables). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Time to establish a connection, ms. Default 3,000. */
  connectionTimeoutMs?: number;
  /** Time a request may stay idle on its socket, ms. Default 20,000. */
  requestTimeoutMs?: number;
}

type Sdk = typeof import('@aws-sdk/client-s3');

const isNotFound = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * S3 answers GetObject on a missing key with 403 AccessDenied (not 404) when the caller may not ListBucket, and the
 * companion deliberately may not: it can only read keys it is given. Readers call `get` only with keys that passed
 * strict URI validation under our prefix, so there AccessDenied means "no such object". Other 403s (bad signature,
 * unknown key id, KMS) are real failures and stay errors.
 */
const isDeniedAsMissing = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'AccessDenied';
};

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

/** Rethrows a failure met while reading a body stream as a StorageError, so readers see one kind of failure. */
async function* storageChunks(body: AsyncIterable<Uint8Array>, key: string): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (error) {
    throw new StorageError('get', key, { cause: error });
  }
}

/**
 * Storage over `@aws-sdk/client-s3`. The SDK is imported on first use, so a function that never offloads never
 * loads it (the bundles leave `@aws-sdk/*` to the Lambda runtime).
 */
export function s3Storage(options: S3StorageOptions): StorageWriter & StorageReader & RangeReader {
  let loaded: Promise<{ sdk: Sdk; client: S3Client }> | undefined;
  const load = () =>
    (loaded ??= import('@aws-sdk/client-s3').then((sdk) => {
      const custom = options.endpoint !== undefined;
      const region = options.region ?? (custom ? 'us-east-1' : undefined);
      const client = new sdk.S3Client({
        ...(region ? { region } : {}),
        ...(options.credentials ? { credentials: options.credentials } : {}),
        ...(custom
          ? {
              endpoint: options.endpoint,
              forcePathStyle: true,
              requestChecksumCalculation: 'WHEN_REQUIRED' as const,
              responseChecksumValidation: 'WHEN_REQUIRED' as const,
            }
          : {}),
        requestHandler: {
          connectionTimeout: options.connectionTimeoutMs ?? 3_000,
          requestTimeout: options.requestTimeoutMs ?? 20_000,
        },
      });
      return { sdk, client };
    }));

  /** Bytes first..last (inclusive, clipped by S3) of an object, with its attributes and total size. */
  const rangedGet = async (key: string, first: number, last: number): Promise<StoredRange> => {
    const { sdk, client } = await load();
    const out = await client.send(
      new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key, Range: `bytes=${first}-${last}` }),
    );
    const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
    const totalSize = totalOf(out.ContentRange) ?? body.byteLength;
    return {
      body,
      start: first,
      totalSize,
      contentType: out.ContentType ?? '',
      metadata: out.Metadata ?? {},
    };
  };
  /** An object's attributes and size from its first byte; an empty object (no byte to range over) read whole. */
  const objectFacts = async (key: string): Promise<StoredRange> => {
    try {
      return await rangedGet(key, 0, 0);
    } catch (error) {
      if (!isInvalidRange(error)) throw error;
      const { sdk, client } = await load();
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key }));
      const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
      return {
        body,
        start: 0,
        totalSize: body.byteLength,
        contentType: out.ContentType ?? '',
        metadata: out.Metadata ?? {},
      };
    }
  };

  return {
    async put(key, body, attributes) {
      try {
        const { sdk, client } = await load();
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: options.bucket,
            Key: key,
            Body: body,
            ContentLength: body.byteLength,
            ContentType: attributes.contentType,
            Metadata: { ...attributes.metadata },
          }),
        );
      } catch (error) {
        throw new StorageError('put', key, { cause: error });
      }
    },
    async get(key) {
      try {
        const { sdk, client } = await load();
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key }));
        const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
        return { body, contentType: out.ContentType ?? '', metadata: out.Metadata ?? {} };
      } catch (error) {
        if (isNotFound(error) || isDeniedAsMissing(error)) return undefined;
        throw new StorageError('get', key, { cause: error });
      }
    },
    // Ranged GetObject (the same s3:GetObject permission): the attributes and the total size come with the bytes.
    async getRange(key, start, end) {
      try {
        try {
          // An empty range still reads one byte: HTTP has no zero-length range, and the attributes come with it.
          const read = await rangedGet(key, start, Math.max(start, end - 1));
          return end > start ? read : { ...read, body: new Uint8Array() };
        } catch (error) {
          if (!isInvalidRange(error)) throw error;
          // The range starts at or past the end (or the object is empty): an empty range with the object's facts.
          return { ...(await objectFacts(key)), body: new Uint8Array(), start };
        }
      } catch (error) {
        if (isNotFound(error) || isDeniedAsMissing(error)) return undefined;
        throw new StorageError('get', key, { cause: error });
      }
    },
    async stream(key, start = 0) {
      try {
        const { sdk, client } = await load();
        const out = await client.send(
          new sdk.GetObjectCommand({
            Bucket: options.bucket,
            Key: key,
            ...(start > 0 ? { Range: `bytes=${start}-` } : {}),
          }),
        );
        const body = (out.Body ?? []) as AsyncIterable<Uint8Array>;
        return storageChunks(body, key);
      } catch (error) {
        if (isNotFound(error) || isDeniedAsMissing(error)) return undefined;
        if (isInvalidRange(error)) return storageChunks((async function* () {})(), key);
        throw new StorageError('get', key, { cause: error });
      }
    },
  };
}
