/**
 * `@mcp-lambda/server/auth`: the building blocks of authorization components built beside the server (the
 * authorization bridge, the CDK constructs): discovery and key sets of an OpenID provider, a bounded JSON fetch and
 * the bounded reading of a response body, RFC 9728 metadata locations, scope and URL checks, the check of JSON
 * nesting, the principal keys an authenticator of your own gives a caller, deadline signals, the lazily made AWS SDK
 * clients (bounded requests, tracing), and outbound HTTP calls as client spans when tracing is on.
 * Audience: those components, not the MCP function (whose `InstrumentClient` is on `./backend`). Experimental.
 */
// ## Building blocks of authorization components (experimental)
export { discoverJwksUri, metadataCandidates } from '../auth/discovery.ts';
export { KeysUnavailableError, RemoteKeySet, type KeySetOptions } from '../auth/jwks.ts';
export {
  fetchJsonObject,
  readBoundedText,
  type FetchLike,
  type RemoteJsonOptions,
} from '../auth/remote-json.ts';
export { metadataPaths, metadataUrl } from '../auth/metadata.ts';
export { grantedScopes, isScopeToken, missingScopes } from '../auth/scopes.ts';
export { isSecureUrl } from '../auth/urls.ts';
export { clientKeyOf, principalKey, principalKeys } from '../auth/principal.ts';
export { anySignal, deadlineSignal, untilAborted } from '../deadline.ts';
export { monotonicMs } from '../clock.ts';
export { clientText, isShortEcho } from '../protocol/client-text.ts';
export { nestsDeeperThan } from '../protocol/json.ts';
export { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '../aws-client.ts';
export { outboundCall, type OutboundRequest } from '../outbound.ts';
