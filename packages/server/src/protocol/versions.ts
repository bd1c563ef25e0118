import { HeaderMismatchError, InvalidParamsError, UnsupportedVersionError } from './errors.ts';
import { isLoggingLevel, type JSONObject } from './types.ts';
import { isJsonObject } from './json.ts';
import { clientText } from './client-text.ts';

/** Handshake-era revisions, newest first (negotiated through `initialize`). */
const HANDSHAKE_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** Stateless-era revisions, newest first (claimed per request in `params._meta`). */
const STATELESS_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Everything this endpoint serves, newest first: the `supportedVersions` of `server/discover` and of -32022. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...STATELESS_PROTOCOL_VERSIONS,
  ...HANDSHAKE_PROTOCOL_VERSIONS,
];
/** Version assumed when a handshake-era request carries no `MCP-Protocol-Version` header (spec: 2025-03-26). */
export const DEFAULT_HANDSHAKE_VERSION = '2025-03-26';

/** `_meta` keys of the 2026-07-28 per-request envelope. */
export const MetaKey = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** The two protocol eras: the handshake era (up to 2025-11-25) and the stateless one (2026-07-28). */
const ERAS = ['handshake', 'stateless'] as const;
export type Era = (typeof ERAS)[number];

/**
 * The eras as messages between this project's own functions name them (the companion's requests, task jobs): the
 * names they were first deployed with, kept on that wire so a function of either release reads the other's
 * messages (a queued task job outlives a deployment).
 */
const ERA_ON_WIRE = { handshake: 'legacy', stateless: 'modern' } as const satisfies Record<Era, string>;

/** An era as messages between this project's functions carry it. */
export type EraOnWire = (typeof ERA_ON_WIRE)[Era];

/** An era as messages between this project's functions carry it (see {@link ERA_ON_WIRE}). */
export const eraToWire = (era: Era): EraOnWire => ERA_ON_WIRE[era];

/** The era a message between this project's functions names; undefined when it names none. */
export const eraFromWire = (value: unknown): Era | undefined =>
  ERAS.find((era) => ERA_ON_WIRE[era] === value);

/** What a single request says about the protocol revision it speaks. */
export interface Revision {
  era: Era;
  protocolVersion: string;
  clientCapabilities?: JSONObject;
  clientInfo?: JSONObject;
}

/** Whether a revision is served here in the handshake era. */
export function isHandshakeVersion(version: string): boolean {
  return (HANDSHAKE_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** Whether a revision is served here in the stateless era. */
export function isStatelessVersion(version: string): boolean {
  return (STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

const unsupportedVersion = (requested: string) =>
  new UnsupportedVersionError(requested, SUPPORTED_PROTOCOL_VERSIONS);

const invalidEnvelope = (key: string, problem: string) =>
  new InvalidParamsError(`the _meta envelope's ${key} ${problem}`, { envelope: { key, problem } });

/**
 * Decides the era of one message (2026-07-28 "Versioning": a request that carries its protocol version in
 * `_meta` is 2026-07-28, anything else is the handshake era): the body decides, the
 * `MCP-Protocol-Version` header never switches the era. Notifications carry no envelope in 2026-07-28
 * (the envelope is a request's), so for them a stateless header names the era instead of being refused.
 * Throws an McpError; the transport answers every one of them with HTTP 400.
 */
export function classifyEra(
  method: string,
  params: unknown,
  headerVersion: string | undefined,
  kind: 'request' | 'notification' = 'request',
): Revision {
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
    if (level !== undefined && !isLoggingLevel(level))
      throw invalidEnvelope(MetaKey.LogLevel, 'must be a logging level');
    if (!isStatelessVersion(claim)) {
      // A header that disagrees with the body is HeaderMismatch whatever the version (2026-07-28 Streamable HTTP,
      // "Protocol Version Header"); only a consistent claim of a revision we do not serve is -32022.
      if (headerVersion !== undefined && headerVersion !== claim) {
        throw new HeaderMismatchError(
          'MCP-Protocol-Version',
          `MCP-Protocol-Version is ${clientText(headerVersion)} but the body claims ${clientText(claim)}`,
        );
      }
      throw unsupportedVersion(claim);
    }
    return {
      era: 'stateless',
      protocolVersion: claim,
      clientCapabilities: caps,
      ...(info ? { clientInfo: info } : {}),
    };
  }
  if (method === 'initialize') return { era: 'handshake', protocolVersion: DEFAULT_HANDSHAKE_VERSION };
  if (headerVersion === undefined) return { era: 'handshake', protocolVersion: DEFAULT_HANDSHAKE_VERSION };
  if (isStatelessVersion(headerVersion)) {
    if (kind === 'notification') return { era: 'stateless', protocolVersion: headerVersion };
    throw new InvalidParamsError(
      `the MCP-Protocol-Version header names ${headerVersion}, but the request lacks the params._meta envelope ` +
        `(${MetaKey.ProtocolVersion}, ${MetaKey.ClientCapabilities}) that revision requires`,
      { envelope: { missing: [MetaKey.ProtocolVersion, MetaKey.ClientCapabilities] } },
    );
  }
  if (!isHandshakeVersion(headerVersion)) throw unsupportedVersion(headerVersion);
  return { era: 'handshake', protocolVersion: headerVersion };
}

/** Handshake `initialize` negotiation: echo the client's version when served, else offer our newest (spec: not an error). */
export function negotiateHandshakeVersion(requested: unknown): string {
  return typeof requested === 'string' && isHandshakeVersion(requested)
    ? requested
    : HANDSHAKE_PROTOCOL_VERSIONS[0];
}
