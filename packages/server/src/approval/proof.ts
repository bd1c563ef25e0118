import { nodeCrypto } from '../crypto.ts';
import { canonicalJson } from '../protocol/json.ts';

/**
 * Approval proofs: `a1.<expiry>.<id>.<mac>`, an HMAC-SHA-256 (node:crypto) over the tool, a digest of the canonical
 * arguments, the caller's key, the expiry and a random 128-bit id. The proof names none of what it binds: the server
 * recomputes the MAC from the call it is shown with, so a proof for other arguments, another tool or another caller,
 * a changed expiry or a made-up one all fail alike, compared in constant time. Single use is the ledger's part.
 */

/** What a proof is bound to. */
export interface ProofBinding {
  tool: string;
  arguments: unknown;
  /** The caller's opaque key, when authorization is on. */
  principal?: string;
}

/** An accepted proof: its id (for the ledger) and expiry (epoch ms). */
export interface OpenedProof {
  id: string;
  expiresAt: number;
}

/** Why a proof is refused. */
export type ProofRefusal = 'invalid' | 'expired';

/** Issues and checks proofs with one key. */
export interface ProofCodec {
  /** True when the key is random to this process: a proof shown to another instance fails there. */
  readonly ephemeral: boolean;
  issue(binding: ProofBinding, ttlMs: number): { proof: string; expiresAt: number };
  check(proof: unknown, binding: ProofBinding): OpenedProof | ProofRefusal;
}

const PROOF = /^a1\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** A digest of the arguments: the same for the same arguments in any key order. */
export const argumentsDigest = (args: unknown): string =>
  nodeCrypto()
    .createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('base64url');

/**
 * A codec keyed from `secret` (at least 16 bytes; the server's request-state secret serves, under its own derived
 * key), or from random bytes of this process when there is none.
 */
export function createProofCodec(
  secret: string | Uint8Array | undefined,
  now: () => number = Date.now,
): ProofCodec {
  const material = secret === undefined ? undefined : Buffer.from(secret);
  if (material && material.length < 16) throw new Error('approval secret must be at least 16 bytes');
  let derived: Buffer | undefined;
  const key = () =>
    (derived ??= Buffer.from(
      nodeCrypto().hkdfSync(
        'sha256',
        material ?? nodeCrypto().randomBytes(32),
        Buffer.alloc(0),
        'mcp approval proof v1',
        32,
      ),
    ));
  const mac = (b: ProofBinding, expiry: string, id: string) =>
    nodeCrypto()
      .createHmac('sha256', key())
      .update(JSON.stringify(['a1', b.tool, argumentsDigest(b.arguments), b.principal ?? null, expiry, id]))
      .digest();
  return {
    ephemeral: secret === undefined,
    issue(binding, ttlMs) {
      const expiresAt = now() + ttlMs;
      const expiry = Math.ceil(expiresAt / 1000).toString(36);
      const id = nodeCrypto().randomBytes(16).toString('base64url');
      return { proof: `a1.${expiry}.${id}.${mac(binding, expiry, id).toString('base64url')}`, expiresAt };
    },
    check(proof, binding) {
      const m = typeof proof === 'string' ? PROOF.exec(proof) : null;
      if (!m) return 'invalid';
      const [, expiry, id, given] = m as unknown as [string, string, string, string];
      const expected = mac(binding, expiry, id);
      const actual = Buffer.from(given, 'base64url');
      if (actual.length !== expected.length || !nodeCrypto().timingSafeEqual(actual, expected))
        return 'invalid';
      const expiresAt = parseInt(expiry, 36) * 1000;
      return expiresAt < now() ? 'expired' : { id, expiresAt };
    },
  };
}
