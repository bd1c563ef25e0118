import type { Logger } from '@mcp-lambda/server';
import { sha256 } from './http.ts';
import type { ClientDirectory } from './clients.ts';
import type { CookieJar } from './cookies.ts';
import type { Sealer } from './seal.ts';
import type { TokenSigner } from './signer.ts';
import type { BridgeStore } from './store.ts';
import type { Upstream } from './upstream.ts';

/** The bridge's URLs, derived from its issuer. */
export interface BridgeUrls {
  issuer: string;
  authorize: string;
  token: string;
  revoke: string;
  register: string;
  jwks: string;
  callback: string;
  consent: string;
}

/** Paths under the issuer (the issuer has no path of its own in this template's stacks). */
export const BRIDGE_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  register: '/oauth/register',
  jwks: '/oauth/jwks',
  callback: '/oauth/callback',
  consent: '/oauth/consent',
} as const;

/** Absolute endpoint URLs for an issuer. */
export function bridgeUrls(issuer: string): BridgeUrls {
  const base = issuer.replace(/\/+$/, '');
  return {
    issuer,
    authorize: `${base}${BRIDGE_PATHS.authorize}`,
    token: `${base}${BRIDGE_PATHS.token}`,
    revoke: `${base}${BRIDGE_PATHS.revoke}`,
    register: `${base}${BRIDGE_PATHS.register}`,
    jwks: `${base}${BRIDGE_PATHS.jwks}`,
    callback: `${base}${BRIDGE_PATHS.callback}`,
    consent: `${base}${BRIDGE_PATHS.consent}`,
  };
}

/** Everything an endpoint needs: the bridge's settings and its collaborators. */
export interface BridgeDeps {
  urls: BridgeUrls;
  /** The MCP endpoint URL: the audience of every token (RFC 8707). */
  resource: string;
  /** Name of the MCP server shown on the consent page. */
  resourceName: string;
  /** Resource scopes the bridge grants (offline_access is added for refresh tokens). */
  scopes: readonly string[];
  sealer: Sealer;
  signer: TokenSigner;
  store: BridgeStore;
  upstream: Upstream;
  clients: ClientDirectory;
  cookies: CookieJar;
  /** Epoch seconds. */
  now(): number;
  log: Logger;
}

/** Fields an endpoint adds to the request's one log line (never a token, code or state). */
export interface RequestNote {
  error?: string;
  client?: string;
  reason?: string;
}

/** The longest host a log names: a DNS name is at most 253 characters, and a port adds at most 6. */
const MAX_LABEL_CHARS = 259;

/**
 * How a client appears in logs: a metadata document's host, or a short hash of a registered client_id. Labelled
 * before the client_id is checked, so the host is cut: a request can carry a host of thousands of characters.
 */
export function clientLabel(clientId: string): string {
  if (/^https:\/\//.test(clientId) && URL.canParse(clientId))
    return new URL(clientId).host.slice(0, MAX_LABEL_CHARS);
  return `registered:${sha256(clientId).slice(0, 12)}`;
}
