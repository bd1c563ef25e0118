/**
 * The AWS side of `npm run load -- --stack NAME`: the SDK clients it reads with, loaded only when `--stack` is given
 * (a run without it never loads the SDK), each call bounded by a timeout, and each failure one line naming what it
 * needed (a permission, credentials, a region) so the run can go on without what that call would have read.
 */

/** What a read needs of an SDK client: `send`, with a signal that abandons the call. */
export interface Sender {
  send(command: object, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

/** The clients the reads use, one per service; tests hand in stand-ins that answer without a network. */
export interface AwsClients {
  cloudFormation: Sender;
  apiGateway: Sender;
  apiGatewayV2: Sender;
  lambda: Sender;
  cloudWatch: Sender;
  logs: Sender;
}

/** The SDK's modules, whose command classes build each request. */
export interface AwsSdk {
  cloudFormation: typeof import('@aws-sdk/client-cloudformation');
  apiGateway: typeof import('@aws-sdk/client-api-gateway');
  apiGatewayV2: typeof import('@aws-sdk/client-apigatewayv2');
  lambda: typeof import('@aws-sdk/client-lambda');
  cloudWatch: typeof import('@aws-sdk/client-cloudwatch');
  logs: typeof import('@aws-sdk/client-cloudwatch-logs');
}

/** A read that failed; its message is one line: what the call needed, or what went wrong. */
export class AwsReadError extends Error {
  override name = 'AwsReadError';
}

/** How long one call may take, credentials included. */
const CALL_TIMEOUT_MS = 10_000;

/** The SDK's modules, loaded on first use (only `--stack` gets here). */
async function loadSdk(): Promise<AwsSdk> {
  const [cloudFormation, apiGateway, apiGatewayV2, lambda, cloudWatch, logs] = await Promise.all([
    import('@aws-sdk/client-cloudformation'),
    import('@aws-sdk/client-api-gateway'),
    import('@aws-sdk/client-apigatewayv2'),
    import('@aws-sdk/client-lambda'),
    import('@aws-sdk/client-cloudwatch'),
    import('@aws-sdk/client-cloudwatch-logs'),
  ]);
  return { cloudFormation, apiGateway, apiGatewayV2, lambda, cloudWatch, logs };
}

const DENIED = /AccessDenied|Unauthorized|NotAuthorized|Forbidden/i;
const BAD_CREDENTIALS = /InvalidClientTokenId|UnrecognizedClient|SignatureDoesNotMatch|InvalidSignature/;

/** One line for a failed call of `action` (an IAM action, e.g. cloudwatch:GetMetricData). */
export function explain(error: unknown, action: string, timeoutMs = CALL_TIMEOUT_MS): string {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = e.name ?? 'Error';
  const message = (e.message ?? String(error)).split('\n')[0]!.trim();
  if (name === 'AbortError' || name === 'TimeoutError')
    return `${action}: no answer within ${timeoutMs / 1000} s`;
  if (name === 'CredentialsProviderError')
    return `no AWS credentials for ${action} (the SDK's default chain: environment, shared config and SSO, instance or task role)`;
  if (/ExpiredToken/.test(name)) return `the AWS credentials have expired (${action})`;
  if (BAD_CREDENTIALS.test(name)) return `the AWS credentials are not valid (${action}: ${name})`;
  if (DENIED.test(name) || e.$metadata?.httpStatusCode === 403) return `needs ${action} (${name})`;
  return `${action}: ${name === 'Error' ? '' : `${name}: `}${message}`;
}

/** The region a client resolved from the environment or the shared config, or an error saying to give one. */
async function resolvedRegion(client: { config: { region: () => Promise<string> } }): Promise<string> {
  try {
    return await client.config.region();
  } catch {
    throw new AwsReadError('no AWS region: give --region, or set AWS_REGION');
  }
}

/** A session: the region, the SDK and the clients, and the one way to call them. */
export class Aws {
  private constructor(
    readonly region: string,
    readonly sdk: AwsSdk,
    private readonly clients: AwsClients,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Opens a session in `region` (else the one the SDK finds in AWS_REGION or the shared config), with the clients
   * given or new ones on the SDK's default credentials chain.
   */
  static async open(
    options: { region?: string; clients?: AwsClients; timeoutMs?: number } = {},
  ): Promise<Aws> {
    const sdk = await loadSdk();
    const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
    if (options.clients) {
      if (!options.region) throw new AwsReadError('no AWS region: give --region, or set AWS_REGION');
      return new Aws(options.region, sdk, options.clients, timeoutMs);
    }
    // One retry at most: a read that fails twice is reported, not waited for.
    const config = (region?: string) => ({ ...(region ? { region } : {}), maxAttempts: 2 });
    const cloudFormation = new sdk.cloudFormation.CloudFormationClient(config(options.region));
    const region = options.region ?? (await resolvedRegion(cloudFormation));
    return new Aws(
      region,
      sdk,
      {
        cloudFormation,
        apiGateway: new sdk.apiGateway.APIGatewayClient(config(region)),
        apiGatewayV2: new sdk.apiGatewayV2.ApiGatewayV2Client(config(region)),
        lambda: new sdk.lambda.LambdaClient(config(region)),
        cloudWatch: new sdk.cloudWatch.CloudWatchClient(config(region)),
        logs: new sdk.logs.CloudWatchLogsClient(config(region)),
      },
      timeoutMs,
    );
  }

  /**
   * Sends `command` with the service's client, abandoned after the timeout (a credentials lookup that hangs too);
   * a failure is an AwsReadError naming `action`, the IAM action the call needs.
   */
  async read<T>(service: keyof AwsClients, command: object, action: string): Promise<T> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error('timed out');
        error.name = 'TimeoutError';
        abort.abort(error);
        reject(error);
      }, this.timeoutMs);
    });
    try {
      return (await Promise.race([
        this.clients[service].send(command, { abortSignal: abort.signal }),
        timedOut,
      ])) as T;
    } catch (error) {
      throw new AwsReadError(explain(error, action, this.timeoutMs));
    } finally {
      clearTimeout(timer);
    }
  }
}
