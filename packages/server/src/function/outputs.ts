import type { OffloadConfig } from '../config.ts';
import { deferred, once } from '../lazy.ts';
import type { InvokeCompanion } from '../outputs/companion/ask.ts';
import { remoteStoredOutputs, storedOutputs } from '../outputs/lazy-readers.ts';
import { createOffloader } from '../outputs/lazy-offloader.ts';
import type { ResultOffloader } from '../outputs/offloader.ts';
import type { OutputPager } from '../outputs/paging/page.ts';
import type { ResourceProvider } from '../resources/provider.ts';
import type { s3Storage } from '../storage/s3.ts';
import type { FunctionStart } from './start.ts';

type S3Storage = ReturnType<typeof s3Storage>;

/**
 * The bucket of stored outputs (OFFLOAD_BUCKET) and the offloader writing to it; nothing when offloading is off.
 * The S3 SDK loads on the first output that is stored.
 */
export function offloadWriter(
  offload: OffloadConfig,
  aws: FunctionStart['aws'],
): { storage: S3Storage; offloader: ResultOffloader } | undefined {
  if (!offload.bucket) return undefined;
  const settings = {
    bucket: offload.bucket,
    ...(offload.s3Endpoint ? { endpoint: offload.s3Endpoint } : {}),
    ...aws,
  };
  // The bucket's code (and with it the S3 SDK) loads with the first output stored or read.
  const storage = deferred<S3Storage>(async () => (await import('../storage/s3.ts')).s3Storage(settings), {
    put: true,
    delete: true,
    get: true,
    getStream: true,
  });
  const offloader = createOffloader({
    storage,
    prefix: offload.prefix,
    thresholdBytes: offload.thresholdBytes,
    ttlDays: offload.ttlDays,
  });
  return { storage, offloader };
}

/** How the MCP function handles large outputs: what writes them, and what serves them back. */
export interface OutputOptions {
  offloader?: ResultOffloader;
  /** `resources/read` of stored outputs. */
  reader?: ResourceProvider;
  /** Pages for read_output: only from the companion function. */
  outputPages?: OutputPager;
}

/**
 * Large outputs: written to the bucket by the MCP function (put, and delete after a failed store); read back through
 * the companion resources function when one is deployed (RESOURCES_FUNCTION_NAME: then only it may read the bucket),
 * else in-process. Pages for read_output come only from the companion (npm start runs one locally), so the MCP
 * function's bundle carries no page-reading code. The S3 and Lambda SDKs load lazily.
 */
export function outputOptions(
  offload: OffloadConfig,
  aws: FunctionStart['aws'],
  traceCarrier?: () => Record<string, string>,
): OutputOptions {
  const writer = offloadWriter(offload, aws);
  if (!writer) return {};
  const { storage, offloader } = writer;
  const { prefix, resourcesFunctionName: functionName } = offload;
  if (!functionName) return { offloader, reader: storedOutputs({ storage, prefix }) };
  // The Lambda client's code loads with the first read too (reading stored outputs is rare on a cold start).
  const companion = once(async () =>
    (await import('../outputs/companion/lambda-invoker.ts')).lambdaInvoker({
      functionName,
      ...aws,
      ...(traceCarrier ? { traceCarrier } : {}),
    }),
  );
  const invoke: InvokeCompanion = async (payload, options) => (await companion())(payload, options);
  const reader = remoteStoredOutputs({ prefix, invoke });
  return { offloader, reader, outputPages: reader };
}
