/**
 * The public surface of the local runtime of `npm start` and the tests: the local HTTP server with its API Gateway
 * emulation, the embedded S3, local Lambda invocation and the local OAuth setup. Never deployed; a module of its
 * own so no function's bundle reaches it (packages/server/src/index.ts says why).
 */
// ## The local runtime of `npm start` and the tests (experimental)
export {
  startLocalServer,
  type BufferedRoutes,
  type LambdaHttpHandler,
  type LambdaRestHandler,
  type LocalHandler,
  type LocalServer,
  type LocalServerOptions,
} from './dev-server.ts';
export {
  LOCAL_SERVER_LIMITS,
  RETRY_AFTER_SECONDS,
  type HeldBodies,
  type LocalServerLimits,
} from './request-body.ts';
export { gatewayPreflight, localGatewayCors, type GatewayCors } from './gateway-cors.ts';
export {
  LOCAL_S3_CREDENTIALS,
  startLocalS3,
  type LocalS3,
  type LocalS3Credentials,
  type LocalS3Options,
} from './s3.ts';
export {
  startLocalLambda,
  type InvokedHandler,
  type LocalLambda,
  type LocalLambdaOptions,
} from './lambda-invoke.ts';
export {
  DEV_USER_EMAIL,
  startLocalOidcProvider,
  type LocalOidcProvider,
  type LocalOidcProviderOptions,
} from './oidc-provider.ts';
export {
  LOCAL_SCOPE,
  startLocalAuthorization,
  type LocalAuthorization,
  type LocalAuthorizationOptions,
  type LocalAuthorizationUrls,
  type LocalMcpFunction,
} from './authorization.ts';
