/**
 * The public surface of the authorization bridge (OAuth 2.1 authorization server for MCP clients, in front of an
 * OpenID provider): for its Lambda function and the local OAuth setup of `npm start`. A module of its own, not part
 * of packages/server/src/index.ts, so the MCP function's bundle never reaches the bridge or jose (packages/server/src/index.ts says why).
 */
// ## The authorization bridge (experimental)
export {
  authorizationServerMetadata,
  createAuthorizationBridge,
  type AuthorizationBridge,
  type BridgeOptions,
} from './bridge.ts';
export { loadBridgeConfig, type BridgeConfig } from './config.ts';
export { createDeployedBridge, type DeployedDependencies } from './deployed.ts';
export { createAuthorizationFunction } from './function.ts';
export { createLocalBridge, type LocalBridgeOptions } from './local.ts';
export { BRIDGE_PATHS, bridgeUrls, type BridgeUrls } from './endpoints.ts';
export type { TokenSigner } from './signer.ts';
export { BridgeLimits } from './limits.ts';
export { createDynamoStore, type DynamoStoreOptions } from './dynamodb-store.ts';
export { signOutEverywhere } from './signout.ts';
export type { BridgeStore } from './store.ts';
