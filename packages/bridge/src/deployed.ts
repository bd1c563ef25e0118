import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import type { AwsClientOptions } from '@mcp-lambda/server/auth';
import { createAuthorizationBridge, type AuthorizationBridge } from './bridge.ts';
import { createClientDirectory } from './clients.ts';
import type { BridgeConfig } from './config.ts';
import { createCookieJar } from './cookies.ts';
import { createDynamoStore } from './dynamodb-store.ts';
import { deadlineSignal, jsonResponse } from './http.ts';
import { awsKms, createKmsSigner, type KmsLike } from './kms-signer.ts';
import { createSealer } from './seal.ts';
import { secretsManagerReader, type SecretReader } from './secrets.ts';
import type { TokenSigner } from './signer.ts';
import type { BridgeStore } from './store.ts';
import { createUpstream, type Upstream } from './upstream.ts';
import { BridgeLimits } from './limits.ts';

/** Swappable collaborators (tests); by default the real Secrets Manager, KMS, DynamoDB and sign-in provider. */
export interface DeployedDependencies {
  readSecret?: SecretReader;
  kms?: KmsLike;
  store?: BridgeStore;
  signer?: TokenSigner;
  upstream?: Upstream;
  /**
   * How the default AWS clients are made (the server package's mechanism: request timeouts, and tracing with
   * `instrument`). Default: the function's region and role, the bridge's cap on one outbound call.
   */
  aws?: AwsClientOptions;
}

/**
 * The bridge as the Lambda function runs it: KMS signs, DynamoDB remembers, Secrets Manager holds the sealing
 * secret and the upstream client secret. The sealing secret is read on the first request of a container (bounded
 * by that request's deadline); if it cannot be read the request is answered 503 and the next one tries again.
 */
export function createDeployedBridge(
  config: BridgeConfig,
  dependencies: DeployedDependencies = {},
): { handle(req: HttpRequest, ctx: InvocationContext): Promise<HttpResponse> } {
  const aws = dependencies.aws ?? {};
  const readSecret = dependencies.readSecret ?? secretsManagerReader(aws);
  let bridge: Promise<AuthorizationBridge> | undefined;

  async function build(ctx: InvocationContext): Promise<AuthorizationBridge> {
    const sealer = createSealer(await readSecret(config.sealingSecretArn, deadlineSignal(ctx)));
    return createAuthorizationBridge({
      issuer: config.issuer,
      resource: config.resource,
      resourceName: config.resourceName,
      scopes: config.scopes,
      sealer,
      signer: dependencies.signer ?? createKmsSigner(config.signingKeyId, dependencies.kms ?? awsKms(aws)),
      store: dependencies.store ?? createDynamoStore({ ...aws, tableName: config.table }),
      upstream:
        dependencies.upstream ??
        createUpstream({
          issuer: config.upstream.issuer,
          clientId: config.upstream.clientId,
          clientSecret: (signal) => readSecret(config.upstream.clientSecretArn, signal),
          scopes: config.upstream.scopes,
          timeoutMs: BridgeLimits.outboundTimeoutMs,
        }),
      clients: createClientDirectory({ sealer, allowLoopbackMetadata: config.allowLoopbackMetadata }),
      cookies: createCookieJar(new URL(config.issuer).protocol === 'https:'),
      now: () => Math.floor(Date.now() / 1000),
      log: ctx.log,
    });
  }

  return {
    async handle(req, ctx) {
      try {
        bridge ??= build(ctx).catch((error: unknown) => {
          bridge = undefined;
          throw error;
        });
        return await (await bridge).handle(req, ctx);
      } catch (error) {
        ctx.log.error('authorization bridge unavailable', {
          cause: error instanceof Error ? error.message : String(error),
        });
        return jsonResponse(
          503,
          { error: 'temporarily_unavailable', error_description: 'try again shortly' },
          { 'retry-after': '5' },
        );
      }
    },
  };
}
