import { OutputLimits } from '../limits.ts';
import { nodeCrypto } from '../crypto.ts';

/**
 * URIs of stored outputs: `mcp-output://<prefix><id>` for a whole output and `mcp-output://<prefix><id>/part-<n>`
 * for part n (1-based) of one stored in parts. The id is 128 random bits as 32 lower-case hex digits. The URI
 * after the scheme is exactly the object key, but keys are always rebuilt from the parsed parts, never sliced out
 * of a URI, so nothing outside the prefix can ever be asked of storage.
 */
const OUTPUT_URI_SCHEME = 'mcp-output';

/** Most parts one output may be split into (the part number in a URI has at most three digits). */
export const MAX_PARTS = OutputLimits.maxParts;

/** A parsed stored-output address. */
export interface OutputAddress {
  id: string;
  /** 1-based part number; absent for an output stored whole. */
  part?: number;
}

const ID_BYTES = 16;
const ID = /^[0-9a-f]{32}$/;

/** A new unguessable id (128 bits from the system CSPRNG). */
export function newOutputId(): string {
  return nodeCrypto().randomBytes(ID_BYTES).toString('hex');
}

function suffix(address: OutputAddress): string {
  if (!ID.test(address.id)) throw new Error('invalid output id');
  if (address.part === undefined) return address.id;
  if (!Number.isInteger(address.part) || address.part < 1 || address.part > MAX_PARTS)
    throw new Error('invalid part number');
  return `${address.id}/part-${address.part}`;
}

const OWNER = /^[0-9a-f]{64}$/;

/**
 * The storage key of an output (or of one of its parts). With an `owner` (the caller's owner tag, when requests
 * are authenticated) the key lies in that caller's own key space, `<prefix><owner>/<id>`: a reader can only ever
 * address objects stored for itself, so another caller's object is never fetched, whoever holds its URI.
 */
export function outputKey(prefix: string, address: OutputAddress, owner?: string): string {
  if (owner === undefined) return `${prefix}${suffix(address)}`;
  if (!OWNER.test(owner)) throw new Error('invalid owner tag');
  return `${prefix}${owner}/${suffix(address)}`;
}

/** The URI clients read an output (or one of its parts) by. */
export function outputUri(prefix: string, address: OutputAddress): string {
  return `${OUTPUT_URI_SCHEME}://${prefix}${suffix(address)}`;
}

/** Whether a URI uses the stored-output scheme at all (ownership: such URIs are never anyone else's). */
export function hasOutputScheme(uri: string): boolean {
  return uri.slice(0, OUTPUT_URI_SCHEME.length + 1).toLowerCase() === `${OUTPUT_URI_SCHEME}:`;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Strictly parses a stored-output URI issued under `prefix`: exact scheme, exact prefix, 32 lower-case hex
 * digits, an optional `/part-<1..MAX_PARTS>` without leading zeros, nothing else (no query, fragment, percent
 * escapes, dot segments or case variants). Anything else → `undefined`, which readers answer as "not found".
 */
export function outputUriParser(prefix: string): (uri: string) => OutputAddress | undefined {
  const pattern = new RegExp(
    `^${OUTPUT_URI_SCHEME}://${escapeRegExp(prefix)}([0-9a-f]{32})(?:/part-([1-9][0-9]{0,2}))?$`,
  );
  return (uri) => {
    if (typeof uri !== 'string' || uri.length > 512) return undefined;
    const m = pattern.exec(uri);
    if (!m) return undefined;
    if (m[2] === undefined) return { id: m[1]! };
    const part = Number(m[2]);
    return part <= MAX_PARTS ? { id: m[1]!, part } : undefined;
  };
}
