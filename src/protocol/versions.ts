import { ErrorCode, McpError } from './errors.ts';
import type { JSONObject } from './types.ts';
import { isJsonObject } from './json.ts';

/** Handshake-era revisions, newest first (negotiated through `initialize`). */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** Stateless-era revisions, newest first (claimed per request in `params._meta`). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Everything this endpoint serves, newest first: the `supportedVersions` of `server/discover` and of -32022. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...LEGACY_PROTOCOL_VERSIONS,
];
/** Version assumed when a handshake-era request carries no `MCP-Protocol-Version` header (spec: 2025-03-26). */
export const DEFAULT_LEGACY_VERSION = '2025-03-26';

/** `_meta` keys of the 2026-07-28 per-request envelope. */
export const MetaKey = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

export type Era = 'legacy' | 'modern';

/** What a single request says about the protocol it speaks. */
export interface RequestEra {
  era: Era;
  protocolVersion: string;
  clientCapabilities?: JSONObject;
  clientInfo?: JSONObject;
}

/** Whether a revision is served here in the handshake era. */
export function isLegacyVersion(version: string): boolean {
  return (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** Whether a revision is served here in the stateless era. */
export function isModernVersion(version: string): boolean {
  return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

function unsupportedVersion(requested: string): McpError {
  return new McpError(
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${requested}. Supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
    { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested },
    400,
  );
}

function invalidEnvelope(key: string, problem: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Invalid _meta envelope: ${key} ${problem}`,
    { envelope: { key, problem } },
    400,
  );
}

const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);

/**
 * Decides the era of one message (2026-07-28.md, "How to tell the eras apart"): the body decides, the
 * `MCP-Protocol-Version` header never switches the era. Notifications carry no envelope in 2026-07-28
 * (the envelope is a request's), so for them a modern header names the era instead of being refused.
 * Throws an McpError carrying the HTTP status.
 */
export function classifyEra(
  method: string,
  params: unknown,
  headerVersion: string | undefined,
  kind: 'request' | 'notification' = 'request',
): RequestEra {
  const meta = isJsonObject(params) ? params._meta : undefined;
  const claim = isJsonObject(meta) ? meta[MetaKey.ProtocolVersion] : undefined;
  if (claim !== undefined) {
    if (typeof claim !== 'string' || claim === '')
      throw invalidEnvelope(MetaKey.ProtocolVersion, 'must be a string');
    const caps = (meta as JSONObject)[MetaKey.ClientCapabilities];
    if (caps === undefined) throw invalidEnvelope(MetaKey.ClientCapabilities, 'is missing');
    if (!isJsonObject(caps)) throw invalidEnvelope(MetaKey.ClientCapabilities, 'must be an object');
    const info = (meta as JSONObject)[MetaKey.ClientInfo];
    if (info !== undefined && !isJsonObject(info))
      throw invalidEnvelope(MetaKey.ClientInfo, 'must be an object');
    const level = (meta as JSONObject)[MetaKey.LogLevel];
    if (level !== undefined && !(typeof level === 'string' && LOG_LEVELS.has(level)))
      throw invalidEnvelope(MetaKey.LogLevel, 'must be a logging level');
    if (!isModernVersion(claim)) {
      // A header that disagrees with the body is HeaderMismatch whatever the version (2026-07-28 Streamable HTTP,
      // "Protocol Version Header"); only a consistent claim of a revision we do not serve is -32022.
      if (headerVersion !== undefined && headerVersion !== claim) {
        throw new McpError(
          ErrorCode.HeaderMismatch,
          `Header mismatch: MCP-Protocol-Version is ${headerVersion} but the body claims ${claim}`,
          { header: 'MCP-Protocol-Version' },
          400,
        );
      }
      throw unsupportedVersion(claim);
    }
    return {
      era: 'modern',
      protocolVersion: claim,
      clientCapabilities: caps,
      ...(info ? { clientInfo: info } : {}),
    };
  }
  if (method === 'initialize') return { era: 'legacy', protocolVersion: DEFAULT_LEGACY_VERSION };
  if (headerVersion === undefined) return { era: 'legacy', protocolVersion: DEFAULT_LEGACY_VERSION };
  if (isModernVersion(headerVersion)) {
    if (kind === 'notification') return { era: 'modern', protocolVersion: headerVersion };
    throw new McpError(
      ErrorCode.InvalidParams,
      `The MCP-Protocol-Version header names ${headerVersion}, but the request lacks the params._meta envelope ` +
        `(${MetaKey.ProtocolVersion}, ${MetaKey.ClientCapabilities}) that revision requires`,
      { envelope: { missing: [MetaKey.ProtocolVersion, MetaKey.ClientCapabilities] } },
      400,
    );
  }
  if (!isLegacyVersion(headerVersion)) throw unsupportedVersion(headerVersion);
  return { era: 'legacy', protocolVersion: headerVersion };
}

/** Legacy `initialize` negotiation: echo the client's version when served, else offer our newest (spec: not an error). */
export function negotiateLegacyVersion(requested: unknown): string {
  return typeof requested === 'string' && isLegacyVersion(requested)
    ? requested
    : LEGACY_PROTOCOL_VERSIONS[0];
}
