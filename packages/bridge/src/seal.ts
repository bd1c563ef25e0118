import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/**
 * Authenticated encryption of the values the bridge hands out instead of storing them: registered client ids,
 * authorization transactions, the upstream `state`, the consent cookie and the sign-in provider's refresh token
 * kept with a family. AES-256-GCM with one key per purpose
 * (HKDF from one secret), the purpose as associated data and an expiry inside, so a value sealed for one use can
 * never be opened as another, altered, or used after it expires.
 */

/** What a sealed value is for; each purpose has its own key. */
type SealPurpose = 'client-id' | 'transaction' | 'upstream-state' | 'consent' | 'upstream-refresh';

/** Seals and opens values with keys derived from one secret. */
export interface Sealer {
  /** Seals a JSON value; `ttlSeconds` makes it expire (omit for values that live as long as the key). */
  seal(purpose: SealPurpose, value: unknown, ttlSeconds?: number): string;
  /** The value, or undefined when the token is malformed, altered, sealed for another purpose or expired. */
  open(purpose: SealPurpose, token: string): unknown;
  /** A keyed MAC of `data` (base64url), e.g. the client secret of a registered confidential client. */
  mac(label: string, data: string): string;
  /** Compares a presented MAC with the expected one in constant time. */
  verifyMac(label: string, data: string, presented: string): boolean;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** No sealed value we issue comes near this; longer input is refused before it is decoded. */
const MAX_TOKEN_CHARS = 8 * 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Creates a sealer. `secret` must be the same on every instance (the deployed stack keeps it in Secrets Manager);
 * it must carry at least 32 bytes of entropy. `now` gives epoch milliseconds (tests).
 */
export function createSealer(secret: string | Uint8Array, now: () => number = Date.now): Sealer {
  const material = Buffer.from(secret);
  if (material.length < 32) throw new Error('The bridge sealing secret must be at least 32 bytes');
  const keys = new Map<string, Buffer>();
  const key = (info: string) => {
    let k = keys.get(info);
    if (!k) {
      k = Buffer.from(
        hkdfSync('sha256', material, Buffer.alloc(0), `mcp authorization bridge v1 ${info}`, 32),
      );
      keys.set(info, k);
    }
    return k;
  };

  return {
    seal(purpose, value, ttlSeconds) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key(`seal ${purpose}`), iv);
      cipher.setAAD(Buffer.from(purpose));
      const exp = ttlSeconds === undefined ? 0 : Math.floor(now() / 1000) + ttlSeconds;
      const plain = Buffer.from(JSON.stringify([exp, value]));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(purpose, token) {
      if (token.length > MAX_TOKEN_CHARS || !BASE64URL.test(token)) return undefined;
      const raw = Buffer.from(token, 'base64url');
      if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) return undefined;
      let parsed: unknown;
      try {
        const decipher = createDecipheriv(
          'aes-256-gcm',
          key(`seal ${purpose}`),
          raw.subarray(1, 1 + IV_BYTES),
        );
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(raw.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        parsed = JSON.parse(plain.toString('utf8'));
      } catch {
        return undefined;
      }
      if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'number') return undefined;
      const [exp, value] = parsed as [number, unknown];
      if (exp !== 0 && exp <= Math.floor(now() / 1000)) return undefined;
      return value;
    },
    mac(label, data) {
      return createHmac('sha256', key(`mac ${label}`))
        .update(data)
        .digest('base64url');
    },
    verifyMac(label, data, presented) {
      const expected = Buffer.from(this.mac(label, data));
      const given = Buffer.from(presented);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
