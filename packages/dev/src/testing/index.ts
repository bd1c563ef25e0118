/**
 * `@mcp-lambda/dev/testing`: the helpers the packages' tests and the template's tests share, for the tests of
 * anything built on these packages: serve a server or a handler locally, talk to it, and stand in for what it
 * talks to (S3, DynamoDB, an OAuth issuer, the bridge). Each loads its heavy parts when started, so importing the
 * face costs a test nothing it does not use.
 */
// ## A raw handshake-era client for asking mid-call (experimental)
export { post, initialize, type Call, startCall, answer } from './asking.ts';
// ## The sign-in set-up: the bridge, its OpenID provider and a server that takes its tokens (experimental)
export { whoami, type BridgeStack, startBridgeStack } from './bridge.ts';
// ## Callers by name (experimental)
export { callersByName } from './callers.ts';
// ## A local DynamoDB (experimental)
export {
  type LocalDynamo,
  startLocalDynamo,
  LOCAL_DYNAMO_CREDENTIALS,
  losingFirstResponse,
} from './dynamodb.ts';
// ## KMS and Secrets Manager stand-ins (experimental)
export { type FakeAws, startFakeAws } from './fake-aws.ts';
// ## A loopback HTTPS server (experimental)
export { loopbackCertificate, type HttpsFixture, startHttpsFixture } from './https.ts';
// ## A test OAuth issuer and its tokens (experimental)
export { type TokenOptions, type TestIssuer, startIssuer } from './issuer.ts';
// ## Serving a server or a Lambda handler on a free loopback port (experimental)
export {
  type RunningServer,
  serveHandler,
  serveServer,
  serveStreamingHandler,
  serveStreamingServer,
} from './local.ts';
// ## OAuth clients and a browser that follows redirects (experimental)
export { MemoryOAuthProvider, CookieJar, type Step, type BrowseOptions, browse, pkce } from './oauth.ts';
// ## An OTLP trace receiver (experimental)
export {
  type ReceivedAttributeValue,
  type ReceivedSpan,
  type OtlpReceiver,
  startOtlpReceiver,
} from './otlp.ts';
// ## Store contracts: the checks any implementation of a storage interface must pass (experimental)
export { type ContractCheck, type MakeStore } from './contracts/check.ts';
export { taskStoreChecks } from './contracts/task-store.ts';
export { questionStoreChecks } from './contracts/question-store.ts';
export { cancellationStoreChecks } from './contracts/cancellation-store.ts';
export { streamLogChecks } from './contracts/stream-log.ts';
export { approvalLedgerChecks } from './contracts/approval-ledger.ts';
export { bridgeStoreChecks } from './contracts/bridge-store.ts';
// ## Stored output pages (experimental)
export { pageOf } from './pages.ts';
// ## JSON-RPC requests straight into a server (experimental)
export { BASE_HEADERS, statelessMeta, send, statelessHeaders } from './rpc.ts';
// ## A local S3 (experimental)
export { type TestS3, TEST_BUCKET, startTestS3, deadEndpoint } from './s3.ts';
// ## An endpoint that never answers (experimental)
export { type SilentEndpoint, silentEndpoint } from './silent-endpoint.ts';
// ## Reading an SSE stream as it arrives (experimental)
export { type ArrivedEvent, readEvents } from './sse.ts';
// ## Text of every kind the sizing treats differently (experimental)
export { MIXED_CHARS, LONE_SURROGATES, seededText } from './text.ts';
