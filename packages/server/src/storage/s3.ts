import type { S3Client } from '@aws-sdk/client-s3';
import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '../aws-client.ts';
import { StorageError, type StorageReader, type StorageWriter } from './storage.ts';

/** Where the objects live and how to reach the service (request timeout default 20,000 ms). */
export interface S3StorageOptions extends AwsClientOptions {
  bucket: string;
  /**
   * Endpoint of an S3-compatible server (local development and tests). Setting it also switches to path-style
   * addressing and to checksums only where required, which local servers need. Default: the AWS endpoint.
   */
  endpoint?: string;
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

/** Whether S3 answered "no such object" (see above: a 404, or AccessDenied for a key that passed validation). */
export const isMissing = (error: unknown): boolean => isNotFound(error) || isDeniedAsMissing(error);

/** The S3 SDK and a client for these options, loaded on first use and kept for the container's life. */
export type S3Access = () => Promise<{ sdk: Sdk; client: S3Client }>;

/** A lazy S3 client: the SDK is imported on the first call, so a function that never uses S3 never loads it. */
export function s3Access(options: S3StorageOptions): S3Access {
  const custom = Boolean(options.endpoint);
  return lazyAwsClient(
    () => import('@aws-sdk/client-s3'),
    (sdk) =>
      new sdk.S3Client({
        ...awsClientConfig(options, 20_000),
        ...(custom
          ? {
              forcePathStyle: true,
              requestChecksumCalculation: 'WHEN_REQUIRED' as const,
              responseChecksumValidation: 'WHEN_REQUIRED' as const,
            }
          : {}),
      }),
    options.instrument,
  );
}

/** An empty body (S3 always sends one; this keeps the types honest). */
export async function* noBody(): AsyncGenerator<Uint8Array> {}

/**
 * A body stream as storage chunks: a failure met while reading it is rethrown as a StorageError, so readers see one
 * kind of failure, and ending the iteration early (`return()`, even before the first chunk) destroys the stream,
 * which releases its connection.
 */
export function storageChunks(body: AsyncIterable<Uint8Array>, key: string): AsyncIterable<Uint8Array> {
  const inner = body[Symbol.asyncIterator]();
  const iterator: AsyncIterator<Uint8Array> = {
    async next() {
      try {
        return await inner.next();
      } catch (error) {
        throw new StorageError('get', key, { cause: error });
      }
    },
    async return() {
      await inner.return?.();
      return { done: true, value: undefined };
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/**
 * Storage over `@aws-sdk/client-s3`. The SDK is imported on first use, so a function that never offloads never
 * loads it (the bundles leave `@aws-sdk/*` to the Lambda runtime).
 */
export function s3Storage(
  options: S3StorageOptions,
): StorageWriter & StorageReader & Required<Pick<StorageReader, 'getStream'>> {
  const load = s3Access(options);

  return {
    async put(key, body, attributes, call) {
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
          { abortSignal: call?.signal },
        );
      } catch (error) {
        throw new StorageError('put', key, { cause: error });
      }
    },
    async delete(key, call) {
      try {
        const { sdk, client } = await load();
        await client.send(new sdk.DeleteObjectCommand({ Bucket: options.bucket, Key: key }), {
          abortSignal: call?.signal,
        });
      } catch (error) {
        throw new StorageError('delete', key, { cause: error });
      }
    },
    async get(key, call) {
      try {
        const { sdk, client } = await load();
        // The signal covers the body too: the request is only released once the body has been read.
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key }), {
          abortSignal: call?.signal,
        });
        const body = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
        return { body, contentType: out.ContentType ?? '', metadata: out.Metadata ?? {} };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw new StorageError('get', key, { cause: error });
      }
    },
    async getStream(key, call) {
      try {
        const { sdk, client } = await load();
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: options.bucket, Key: key }), {
          abortSignal: call?.signal,
        });
        const body = (out.Body ?? noBody()) as AsyncIterable<Uint8Array>;
        return {
          body: storageChunks(body, key),
          contentType: out.ContentType ?? '',
          metadata: out.Metadata ?? {},
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw new StorageError('get', key, { cause: error });
      }
    },
  };
}
