import { nodeCrypto } from '../crypto.ts';
import type { ObjectAttributes } from '../storage/storage.ts';

/** How a stored output's bytes are served back: `utf-8` as `text`, `binary` as a base64 `blob`. */
export type OutputEncoding = 'utf-8' | 'binary';

/** What every stored output object carries beside its bytes (S3 content type and user metadata). */
export interface OutputObjectInfo {
  mimeType: string;
  encoding: OutputEncoding;
  /** Byte size of this object. */
  size: number;
  /** Lower-case hex SHA-256 of this object's bytes. */
  sha256: string;
  /** Epoch milliseconds after which the object is treated as gone (the bucket lifecycle deletes it later). */
  expiresAt: number;
  /** Hash of the caller that produced it, when the request was authenticated; readers must match it. */
  owner?: string;
}

/** `_meta` key on links (and read contents) with the stored output's facts. */
export const OUTPUT_META_KEY = 'mcp-lambda-template/output';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const DIGITS = /^(0|[1-9][0-9]{0,15})$/;

/** Lower-case hex SHA-256 of some bytes, or of several chunks taken in order. */
export function sha256Hex(bytes: Uint8Array | readonly Uint8Array[]): string {
  const hash = nodeCrypto().createHash('sha256');
  for (const chunk of bytes instanceof Uint8Array ? [bytes] : bytes) hash.update(chunk);
  return hash.digest('hex');
}

/** The owner tag stored for a principal: a hash, so the principal itself never lands in object metadata. */
export function ownerTag(principal: string | undefined): string | undefined {
  return principal === undefined ? undefined : sha256Hex(Buffer.from(`owner:${principal}`, 'utf8'));
}

/** The content type and metadata written with an output object. */
export function toAttributes(info: OutputObjectInfo): ObjectAttributes {
  return {
    contentType: info.mimeType,
    metadata: {
      encoding: info.encoding,
      size: String(info.size),
      sha256: info.sha256,
      'expires-at': new Date(info.expiresAt).toISOString(),
      ...(info.owner !== undefined ? { owner: info.owner } : {}),
    },
  };
}

/**
 * Reads an object's info back from its attributes (the reader then checks the bytes against it). `undefined` when
 * the object was not written by this feature (missing or malformed metadata): such an object is treated as not found.
 */
export function fromStored(object: ObjectAttributes): OutputObjectInfo | undefined {
  const m = object.metadata;
  const encoding = m.encoding;
  if (encoding !== 'utf-8' && encoding !== 'binary') return undefined;
  if (!m.size || !DIGITS.test(m.size) || !m.sha256 || !SHA256_HEX.test(m.sha256)) return undefined;
  const expiresAt = Date.parse(m['expires-at'] ?? '');
  if (!Number.isFinite(expiresAt) || !object.contentType) return undefined;
  const owner = m.owner;
  if (owner !== undefined && !SHA256_HEX.test(owner)) return undefined;
  return {
    mimeType: object.contentType,
    encoding,
    size: Number(m.size),
    sha256: m.sha256,
    expiresAt,
    ...(owner !== undefined ? { owner } : {}),
  };
}
