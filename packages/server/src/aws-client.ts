import { instrumented, type InstrumentClient } from './outbound.ts';

/** How a client reaches an AWS service: every option has the SDK's default (the function's region and role). */
export interface AwsClientOptions {
  /** Endpoint of a compatible server (local development and tests). Default: the AWS endpoint of the region. */
  endpoint?: string;
  /** Default: the `AWS_REGION` of the environment, or us-east-1 with a custom endpoint. */
  region?: string;
  /** Default: the SDK's provider chain (the function's role, or `AWS_*` variables). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Time to establish a connection, ms. Default 3,000. */
  connectionTimeoutMs?: number;
  /** Time a request may stay idle on its socket before it fails, ms. Default: the service's (see `awsClientConfig`). */
  requestTimeoutMs?: number;
  /** Wraps the SDK client when it is made (tracing). Default: none. */
  instrument?: InstrumentClient;
}

/** The client configuration every service shares: region, endpoint, credentials and bounded requests. */
export function awsClientConfig(options: AwsClientOptions, defaultRequestTimeoutMs: number) {
  const region = options.region ?? (options.endpoint ? 'us-east-1' : undefined);
  return {
    ...(region ? { region } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? 3_000,
      requestTimeout: options.requestTimeoutMs ?? defaultRequestTimeoutMs,
      // Without this the SDK only warns when a request outlives requestTimeout, and keeps waiting.
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * An SDK and its client, made on the first call and kept for the container's life: the SDK (provided by the Lambda
 * runtime, so the bundles do not carry it) is imported only by a function that uses the service.
 */
export function lazyAwsClient<Sdk, Client extends object>(
  importSdk: () => Promise<Sdk>,
  makeClient: (sdk: Sdk) => Client,
  instrument: InstrumentClient | undefined,
): () => Promise<{ sdk: Sdk; client: Client }> {
  let loaded: Promise<{ sdk: Sdk; client: Client }> | undefined;
  return () =>
    (loaded ??= importSdk().then((sdk) => ({ sdk, client: instrumented(makeClient(sdk), instrument) })));
}
