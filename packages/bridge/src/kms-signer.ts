import { createHash } from 'node:crypto';
import { base64url, exportJWK, importSPKI, type JWK, type JWTPayload } from 'jose';
import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '@mcp-lambda/server/auth';
import { BridgeLimits } from './limits.ts';
import { publicJwk, type TokenSigner } from './signer.ts';

/**
 * A signer whose private key never leaves AWS KMS: an asymmetric ECC_NIST_P256 SIGN_VERIFY key signs the SHA-256
 * digest of each token (kms:Sign), and the public key is read once per container (kms:GetPublicKey). The SDK is
 * loaded on first use and is not bundled (the Lambda runtime provides it).
 */

/** The part of the KMS client used here, so tests can supply a stand-in. */
export interface KmsLike {
  getPublicKey(keyId: string, signal: AbortSignal): Promise<Uint8Array>;
  signDigest(keyId: string, digest: Uint8Array, signal: AbortSignal): Promise<Uint8Array>;
}

/** The real KMS client, made on the first call (the server package's bounded, optionally traced client). */
export function awsKms(options: AwsClientOptions = {}): KmsLike {
  const load = lazyAwsClient(
    () => import('@aws-sdk/client-kms'),
    (sdk) => new sdk.KMSClient(awsClientConfig(options, BridgeLimits.outboundTimeoutMs)),
    options.instrument,
  );
  return {
    async getPublicKey(keyId, signal) {
      const { sdk, client } = await load();
      const out = await client.send(new sdk.GetPublicKeyCommand({ KeyId: keyId }), { abortSignal: signal });
      if (!out.PublicKey || out.KeySpec !== 'ECC_NIST_P256' || out.KeyUsage !== 'SIGN_VERIFY')
        throw new Error('The KMS signing key must be an ECC_NIST_P256 SIGN_VERIFY key');
      return out.PublicKey;
    },
    async signDigest(keyId, digest, signal) {
      const { sdk, client } = await load();
      const command = new sdk.SignCommand({
        KeyId: keyId,
        Message: digest,
        MessageType: 'DIGEST',
        SigningAlgorithm: 'ECDSA_SHA_256',
      });
      const out = await client.send(command, { abortSignal: signal });
      if (!out.Signature) throw new Error('KMS returned no signature');
      return out.Signature;
    },
  };
}

/**
 * Converts a DER ECDSA signature (what KMS returns: SEQUENCE { INTEGER r, INTEGER s }) into the JOSE form, r and
 * s as fixed 32-byte big-endian integers (RFC 7518 §3.4). Throws on anything that is not exactly that shape.
 */
export function derToJose(der: Uint8Array, size = 32): Uint8Array {
  let offset = 0;
  const byte = () => {
    if (offset >= der.length) throw new Error('Truncated DER signature');
    return der[offset++]!;
  };
  const length = () => {
    const first = byte();
    if (first < 0x80) return first;
    if (first !== 0x81) throw new Error('Unsupported DER length');
    const value = byte();
    if (value < 0x80) throw new Error('Non-minimal DER length');
    return value;
  };
  if (byte() !== 0x30) throw new Error('DER signature is not a SEQUENCE');
  if (length() !== der.length - offset) throw new Error('DER SEQUENCE length mismatch');
  const out = new Uint8Array(size * 2);
  for (const index of [0, 1]) {
    if (byte() !== 0x02) throw new Error('DER signature part is not an INTEGER');
    const len = length();
    if (len === 0 || offset + len > der.length) throw new Error('Bad DER INTEGER length');
    let value = der.subarray(offset, offset + len);
    offset += len;
    if (value[0]! & 0x80) throw new Error('Negative DER INTEGER');
    while (value.length > 1 && value[0] === 0) value = value.subarray(1);
    if (value.length > size) throw new Error('DER INTEGER too large');
    out.set(value, index * size + (size - value.length));
  }
  if (offset !== der.length) throw new Error('Trailing bytes after DER signature');
  return out;
}

/** A signer backed by the KMS key `keyId` (id, ARN or alias ARN). */
export function createKmsSigner(keyId: string, kms: KmsLike = awsKms()): TokenSigner {
  let key: Promise<JWK> | undefined;
  const publicKey = (signal: AbortSignal) =>
    (key ??= kms
      .getPublicKey(keyId, signal)
      .then((spki) => {
        const pem = `-----BEGIN PUBLIC KEY-----\n${Buffer.from(spki).toString('base64')}\n-----END PUBLIC KEY-----`;
        return importSPKI(pem, 'ES256', { extractable: true });
      })
      .then((k) => exportJWK(k))
      .then(publicJwk)
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      }));
  return {
    alg: 'ES256',
    async sign(claims: JWTPayload, signal) {
      const jwk = await publicKey(signal);
      const header = base64url.encode(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid }));
      const payload = base64url.encode(JSON.stringify(claims));
      const input = `${header}.${payload}`;
      const digest = createHash('sha256').update(input, 'utf8').digest();
      const der = await kms.signDigest(keyId, digest, signal);
      return `${input}.${base64url.encode(derToJose(der))}`;
    },
    async jwks(signal) {
      return { keys: [await publicKey(signal)] };
    },
  };
}
