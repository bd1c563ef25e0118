import { nodeCrypto } from '../crypto.ts';
import { MAX_JSON_DEPTH } from '../limits.ts';
import { isJsonObject, nestsDeeperThan } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { KeyRing, SealingKey } from './session-keys.ts';

/**
 * Handshake-era sessions without server state: the `Mcp-Session-Id` that `initialize` issues is what the client
 * declared there (protocol version, capabilities, client info), sealed with AES-256-GCM, so any instance reads it
 * back from the header of a later request. The caller's client key (`Principal.clientKey`) is bound in (GCM
 * additional data) when authorization is on, so an id copied to another caller, or to another client of the same
 * person, does not open. An id that does not open (altered, foreign key, another caller or client, expired) is an
 * unknown session: the transport answers 404 (spec: transports, "Session Management").
 */

/** What a handshake-era client declared at `initialize`, as every later request of its session carries it. */
export interface Session {
  /** The sealed id itself (the `Mcp-Session-Id` value): what answers and cancellations are bound to. */
  id: string;
  protocolVersion: string;
  capabilities: JSONObject;
  clientInfo?: JSONObject;
}

/** What `initialize` sealed, before it has an id. */
export type SessionClaims = Omit<Session, 'id'>;

const VERSION = 1;
const KID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KID_BYTES + IV_BYTES + TAG_BYTES;
/** Longest id accepted: a hostile header never makes us decode more (ids we issue stay far below). */
const MAX_ID_CHARS = 4096;
/**
 * Declared capabilities larger than this (UTF-8 bytes of their JSON) are kept in brief: the id travels on every
 * request, and with the client info at its longest the id stays under MAX_ID_CHARS, so every id issued opens.
 */
const MAX_CAPABILITIES_BYTES = 1024;
/** The capabilities the schema names (`ClientCapabilities`): kept first when a declaration is cut. */
const KNOWN_CAPABILITIES = ['elicitation', 'sampling', 'roots', 'tasks', 'experimental', 'extensions'];
/** Longest client info string kept (name, version, title). */
const MAX_INFO_CHARS = 64;

const aad = (principal: string | undefined) => Buffer.from(JSON.stringify([VERSION, principal ?? null]));

/** Serialized size; a value too deep to serialize safely counts as too large, so trimming drops it to `{}`. */
const jsonBytes = (value: unknown) =>
  nestsDeeperThan(value, MAX_JSON_DEPTH) ? Infinity : Buffer.byteLength(JSON.stringify(value));

/**
 * The capabilities as declared or, when unusually large, as many as fit: the schema's own first, each whole when it
 * fits or else by name with an empty object (`elicitation: {}` still means form mode).
 */
function keptCapabilities(capabilities: JSONObject): JSONObject {
  if (jsonBytes(capabilities) <= MAX_CAPABILITIES_BYTES) return capabilities;
  const names = Object.keys(capabilities);
  const ordered = [
    ...KNOWN_CAPABILITIES.filter((name) => Object.hasOwn(capabilities, name)),
    ...names.filter((name) => !KNOWN_CAPABILITIES.includes(name)),
  ];
  const kept: [string, unknown][] = [];
  let size = 2; // {}
  for (const name of ordered) {
    const value = capabilities[name]!;
    const key = jsonBytes(name) + 1 + (kept.length ? 1 : 0); // "name": and a comma before all but the first
    const brief = isJsonObject(value) ? {} : value;
    for (const candidate of [value, brief]) {
      const bytes = key + jsonBytes(candidate);
      if (size + bytes > MAX_CAPABILITIES_BYTES) continue;
      kept.push([name, candidate]);
      size += bytes;
      break;
    }
  }
  return Object.fromEntries(kept);
}

/** name, version and title, as short strings: enough for logs and tools to know the client. */
function keptClientInfo(info: JSONObject | undefined): JSONObject | undefined {
  if (!info) return undefined;
  const kept: JSONObject = {};
  for (const field of ['name', 'version', 'title'])
    if (typeof info[field] === 'string') kept[field] = (info[field] as string).slice(0, MAX_INFO_CHARS);
  return kept;
}

/** Seals the claims of a new session with the ring's newest key; `principal` binds it to the caller. */
export function sealSession(
  ring: KeyRing,
  claims: SessionClaims,
  expiresAt: number,
  principal?: string,
): string {
  const key = ring.current;
  const iv = nodeCrypto().randomBytes(IV_BYTES);
  const cipher = nodeCrypto().createCipheriv('aes-256-gcm', key.secret, iv);
  cipher.setAAD(aad(principal));
  const info = keptClientInfo(claims.clientInfo);
  const plain = JSON.stringify({
    v: claims.protocolVersion,
    c: keptCapabilities(claims.capabilities),
    ...(info ? { i: info } : {}),
    e: expiresAt,
  });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), key.id, iv, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * The key id an id names, or undefined when it is not shaped like one of ours. Only the one spelling we issue is
 * read: base64url decoding ignores a last character's spare bits and a dangling character, and a second spelling
 * of the same session would be a second identity for everything bound to the id (the questions asked of it).
 */
export function sessionKeyId(id: string): Buffer | undefined {
  if (id.length > MAX_ID_CHARS || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
  const raw = Buffer.from(id, 'base64url');
  if (raw.length <= HEADER_BYTES || raw[0] !== VERSION || raw.toString('base64url') !== id) return undefined;
  return raw.subarray(1, 1 + KID_BYTES);
}

/** Opens an id with the key it names; undefined for anything that is not a live session of this caller. */
export function openSession(
  key: SealingKey | undefined,
  id: string,
  now: number,
  principal?: string,
): Session | undefined {
  if (!key || !sessionKeyId(id)) return undefined;
  const raw = Buffer.from(id, 'base64url');
  let claims: unknown;
  try {
    const decipher = nodeCrypto().createDecipheriv(
      'aes-256-gcm',
      key.secret,
      raw.subarray(1 + KID_BYTES, 1 + KID_BYTES + IV_BYTES),
    );
    decipher.setAAD(aad(principal));
    decipher.setAuthTag(raw.subarray(1 + KID_BYTES + IV_BYTES, HEADER_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(HEADER_BYTES)), decipher.final()]);
    claims = JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isJsonObject(claims) || typeof claims.e !== 'number' || claims.e <= now) return undefined;
  if (typeof claims.v !== 'string' || !isJsonObject(claims.c)) return undefined;
  return {
    id,
    protocolVersion: claims.v,
    capabilities: claims.c,
    ...(isJsonObject(claims.i) ? { clientInfo: claims.i } : {}),
  };
}
