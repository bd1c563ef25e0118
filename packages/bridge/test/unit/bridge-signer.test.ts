import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createKmsSigner, derToJose, type KmsLike } from '../../src/kms-signer.ts';
import { createLocalSigner } from '../../src/signer.ts';

/**
 * Token signing: the local signer and the KMS signer produce ES256 access tokens that jose verifies against the
 * published key set. KMS itself cannot run here; a stand-in that signs digests with a P-256 key in DER, exactly as
 * KMS's Sign with ECDSA_SHA_256 and MessageType DIGEST answers, takes its place.
 */

function fakeKms(): KmsLike & { calls: string[] } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const calls: string[] = [];
  return {
    calls,
    async getPublicKey(keyId) {
      calls.push(`GetPublicKey ${keyId}`);
      return publicKey.export({ type: 'spki', format: 'der' });
    },
    async signDigest(keyId, digest) {
      calls.push(`Sign ${keyId} ${digest.length}`);
      // Node can only sign messages (it hashes them); `openssl pkeyutl -sign` signs a given digest as KMS does.
      const dir = mkdtempSync(join(tmpdir(), 'fake-kms-'));
      try {
        writeFileSync(join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
        writeFileSync(join(dir, 'digest'), digest);
        return execFileSync('openssl', [
          'pkeyutl',
          '-sign',
          '-inkey',
          join(dir, 'key.pem'),
          '-in',
          join(dir, 'digest'),
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const claims = {
  iss: 'https://bridge.example.com',
  sub: 'u',
  aud: 'https://mcp.example.com/mcp',
  exp: 4_000_000_000,
};
const signal = () => AbortSignal.timeout(1000);

describe('token signers', () => {
  it('the local signer signs ES256 at+jwt tokens that verify with its key set', async () => {
    const signer = await createLocalSigner();
    const jwt = await signer.sign(claims, signal());
    const keys = createLocalJWKSet(await signer.jwks(signal()));
    const { payload, protectedHeader } = await jwtVerify(jwt, keys, { algorithms: ['ES256'] });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(payload).toMatchObject(claims);
  });

  it('publishes only public key parameters with a thumbprint kid', async () => {
    const { keys } = await (await createLocalSigner()).jwks(signal());
    expect(Object.keys(keys[0]!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
  });
});

describe('DER to JOSE signature conversion (RFC 7518 §3.4)', () => {
  it('pads short integers and strips sign bytes', () => {
    const r = [0x00, 0x80, ...Array(31).fill(1)];
    const s = [0x05];
    const der = Uint8Array.from([
      0x30,
      2 + r.length + 2 + s.length,
      0x02,
      r.length,
      ...r,
      0x02,
      s.length,
      ...s,
    ]);
    const jose = derToJose(der);
    expect(jose.length).toBe(64);
    expect(jose[0]).toBe(0x80);
    expect(jose[63]).toBe(0x05);
    expect(jose.subarray(32, 63).every((b) => b === 0)).toBe(true);
  });

  it.each([
    ['not a sequence', [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]],
    ['a wrong length', [0x30, 0x09, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]],
    ['trailing bytes', [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]],
    ['a negative integer', [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x01]],
    ['an oversized integer', [0x30, 0x25, 0x02, 0x21, ...Array(33).fill(1), 0x02, 0x00]],
  ])('refuses %s', (_, bytes) => {
    expect(() => derToJose(Uint8Array.from(bytes))).toThrow();
  });
});

describe('the KMS signer', () => {
  it('signs a digest in KMS and its tokens verify against the published key', async () => {
    const kms = fakeKms();
    const signer = createKmsSigner('arn:aws:kms:eu-west-1:111122223333:key/abc', kms);
    const jwks = await signer.jwks(signal());
    for (let i = 0; i < 5; i += 1) {
      const jwt = await signer.sign({ ...claims, jti: String(i) }, signal());
      expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', typ: 'at+jwt', kid: jwks.keys[0]!.kid });
      await expect(jwtVerify(jwt, createLocalJWKSet(jwks), { algorithms: ['ES256'] })).resolves.toBeDefined();
    }
    // The public key is read once per container; every token is one Sign call with a 32-byte digest.
    expect(kms.calls.filter((c) => c.startsWith('GetPublicKey'))).toHaveLength(1);
    expect(kms.calls.filter((c) => c.endsWith(' 32'))).toHaveLength(5);
  });

  it('reads the public key again after a failure instead of caching it', async () => {
    const kms = fakeKms();
    let fail = true;
    const flaky: KmsLike = {
      getPublicKey: (id, s) => (fail ? Promise.reject(new Error('throttled')) : kms.getPublicKey(id, s)),
      signDigest: kms.signDigest,
    };
    const signer = createKmsSigner('arn:aws:kms:eu-west-1:111122223333:key/abc', flaky);
    await expect(signer.jwks(signal())).rejects.toThrow('throttled');
    fail = false;
    await expect(signer.jwks(signal())).resolves.toMatchObject({
      keys: [expect.objectContaining({ crv: 'P-256' })],
    });
  });
});
