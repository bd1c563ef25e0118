import { nodeCrypto } from '../crypto.ts';
import { untilAborted } from '../deadline.ts';
import { canonicalJson } from '../protocol/json.ts';
import {
  keyRingLoader,
  type KeyLabels,
  type KeyMaterialSource,
  type KeyRing,
  type SessionKeySource,
} from '../sessions/session-keys.ts';

/**
 * Approval proofs: `a2.<key id>.<expiry>.<id>.<mac>`, an HMAC-SHA-256 (node:crypto) over the tool, a digest of the
 * canonical arguments, the caller's client key, the expiry and a random 128-bit id. The proof names none of what it binds:
 * the server recomputes the MAC from the call it is shown with, so a proof for other arguments, another tool or
 * another caller, a changed expiry or a made-up one all fail alike, compared in constant time. Single use is the
 * ledger's part. The key is the explicit secret's, else the session keys' (each through HKDF with labels of its own,
 * as `requestState` derives its keys): every instance checks what any instance issued, and a rotation works as for
 * session ids (the newest key signs, every listed key checks; a removed key's proofs fail).
 */

/** What a proof is bound to. */
export interface ProofBinding {
  tool: string;
  arguments: unknown;
  /** The caller's client key (`Principal.clientKey`), when authorization is on. */
  principal?: string;
}

/** An accepted proof: its id (for the ledger) and expiry (epoch ms). */
interface OpenedProof {
  id: string;
  expiresAt: number;
}

/** Why a proof is refused. */
type ProofRefusal = 'invalid' | 'expired';

/** Issues and checks proofs; both may read the keys (bounded by `signal`) and throw when they cannot be read. */
export interface ProofCodec {
  /** True when the key is random to this process: a proof shown to another instance fails there. */
  readonly ephemeral: boolean;
  issue(
    binding: ProofBinding,
    ttlMs: number,
    signal?: AbortSignal,
  ): Promise<{ proof: string; expiresAt: number }>;
  check(proof: unknown, binding: ProofBinding, signal?: AbortSignal): Promise<OpenedProof | ProofRefusal>;
}

/** Where the keys come from: an explicit secret wins over the session keys; neither gives a key of this process. */
export interface ProofKeys {
  /** At least 16 bytes (`approvals.secret`, else `requestStateSecret`). */
  secret?: string | Uint8Array;
  /** The server's session keys (`sessions.keys`). */
  sessionKeys?: SessionKeySource;
}

/** Proofs: distinct from every other use of the key strings, so no two uses share a key. */
const PROOF_KEY_LABELS: KeyLabels = {
  key: 'mcp approval proof v1',
  id: 'mcp approval proof key id v1',
};

const PROOF = /^a2\.([0-9a-f]{8})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const MIN_SECRET_BYTES = 16;

/** A digest of the arguments: the same for the same arguments in any key order. */
export const argumentsDigest = (args: unknown): string =>
  nodeCrypto()
    .createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('base64url');

/** The key source of `keys`; throws for a secret too short. */
function keySource(keys: ProofKeys): KeyMaterialSource | undefined {
  const { secret } = keys;
  if (secret === undefined) return keys.sessionKeys;
  if (Buffer.from(secret).length < MIN_SECRET_BYTES)
    throw new Error(`approval secret must be at least ${MIN_SECRET_BYTES} bytes`);
  return [secret];
}

/** A codec keyed from `keys` (see {@link ProofKeys}), or from random bytes of this process when there are none. */
export function createProofCodec(keys: ProofKeys, now: () => number = Date.now): ProofCodec {
  const source = keySource(keys);
  const loader = keyRingLoader(source ?? [nodeCrypto().randomBytes(32)], PROOF_KEY_LABELS, now);
  // The loader keeps the ring and reads it again when five minutes old (a key removed from the secret stops
  // checking on warm instances too); the call's signal bounds any read.
  const ring = (signal: AbortSignal | undefined, fresh = false): Promise<KeyRing> => {
    const read = signal ?? AbortSignal.timeout(5_000);
    return untilAborted(fresh ? loader.reload(read) : loader.ring(read), read);
  };
  const mac = (secret: Buffer, b: ProofBinding, expiry: string, id: string) =>
    nodeCrypto()
      .createHmac('sha256', secret)
      .update(JSON.stringify(['a2', b.tool, argumentsDigest(b.arguments), b.principal ?? null, expiry, id]))
      .digest();
  return {
    ephemeral: source === undefined,
    async issue(binding, ttlMs, signal) {
      const key = (await ring(signal)).current;
      const expiresAt = now() + ttlMs;
      const expiry = Math.ceil(expiresAt / 1000).toString(36);
      const id = nodeCrypto().randomBytes(16).toString('base64url');
      const kid = key.id.toString('hex');
      const tag = mac(key.secret, binding, expiry, id).toString('base64url');
      return { proof: `a2.${kid}.${expiry}.${id}.${tag}`, expiresAt };
    },
    async check(proof, binding, signal) {
      const m = typeof proof === 'string' ? PROOF.exec(proof) : null;
      if (!m) return 'invalid';
      const [, kid, expiry, id, given] = m as unknown as [string, string, string, string, string];
      // A key this instance does not know may be one rotated in elsewhere: read the keys again (once a minute).
      const key = (await ring(signal)).byId.get(kid) ?? (await ring(signal, true)).byId.get(kid);
      if (!key) return 'invalid';
      const expected = mac(key.secret, binding, expiry, id);
      const actual = Buffer.from(given, 'base64url');
      if (actual.length !== expected.length || !nodeCrypto().timingSafeEqual(actual, expected))
        return 'invalid';
      const expiresAt = parseInt(expiry, 36) * 1000;
      return expiresAt < now() ? 'expired' : { id, expiresAt };
    },
  };
}
