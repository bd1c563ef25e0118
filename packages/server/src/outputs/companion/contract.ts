import type { ResourceContents } from '../../protocol/types.ts';
import { eraFromWire, type Era } from '../../protocol/versions.ts';
import { isJsonObject } from '../../protocol/json.ts';

/**
 * The contract between the MCP function and the companion resources function (direct Lambda invoke), versioned
 * and checked on both sides: the caller refuses answers it does not understand, the companion refuses requests.
 */
export const STORED_READ_VERSION = 1;

/** MCP function → companion: read one stored-output URI on behalf of a caller. */
export interface StoredReadRequest {
  version: typeof STORED_READ_VERSION;
  uri: string;
  /** The MCP invocation's request id, so both functions' logs can be joined. */
  requestId: string;
  /** On the wire by its wire name (`eraToWire`). */
  era: Era;
  /** The authenticated caller, when authorization is enabled (outputs are bound to their owner). */
  principal?: string;
}

/** Companion → MCP function. `unavailable` carries no detail: the companion logs it. */
export type StoredReadResponse =
  | { version: typeof STORED_READ_VERSION; status: 'found'; contents: ResourceContents[]; ttlMs: number }
  | { version: typeof STORED_READ_VERSION; status: 'not_found' }
  | { version: typeof STORED_READ_VERSION; status: 'unavailable' }
  | { version: typeof STORED_READ_VERSION; status: 'invalid_request' };

const shortString = (v: unknown, max: number): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= max;
const KEYS_REQUEST = new Set(['version', 'uri', 'requestId', 'era', 'principal']);

/** Checks a request; `undefined` when it is not exactly a version-1 request. */
export function parseStoredReadRequest(value: unknown): StoredReadRequest | undefined {
  if (!isJsonObject(value) || value.version !== STORED_READ_VERSION) return undefined;
  if (Object.keys(value).some((k) => !KEYS_REQUEST.has(k))) return undefined;
  const { uri, requestId, principal } = value;
  const era = eraFromWire(value.era);
  if (!shortString(uri, 2048) || !shortString(requestId, 256)) return undefined;
  if (!era) return undefined;
  if (principal !== undefined && !shortString(principal, 1024)) return undefined;
  return {
    version: STORED_READ_VERSION,
    uri,
    requestId,
    era,
    ...(principal !== undefined ? { principal } : {}),
  };
}

function isContents(value: unknown): value is ResourceContents {
  if (!isJsonObject(value) || typeof value.uri !== 'string') return false;
  if (value.mimeType !== undefined && typeof value.mimeType !== 'string') return false;
  if (value._meta !== undefined && !isJsonObject(value._meta)) return false;
  return (typeof value.text === 'string') !== (typeof value.blob === 'string');
}

/** Checks a response; `undefined` when it is not a well-formed version-1 response. */
export function parseStoredReadResponse(value: unknown): StoredReadResponse | undefined {
  if (!isJsonObject(value) || value.version !== STORED_READ_VERSION) return undefined;
  switch (value.status) {
    case 'found': {
      const { contents, ttlMs } = value;
      if (!Array.isArray(contents) || contents.length === 0 || !contents.every(isContents)) return undefined;
      if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 0) return undefined;
      return { version: STORED_READ_VERSION, status: 'found', contents, ttlMs };
    }
    case 'not_found':
    case 'unavailable':
    case 'invalid_request':
      return { version: STORED_READ_VERSION, status: value.status };
    default:
      return undefined;
  }
}
