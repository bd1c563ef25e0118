import { nodeCrypto } from '../crypto.ts';
import { InvalidParamsError } from '../protocol/errors.ts';
import { canonicalJson } from '../protocol/json.ts';
import type { JSONValue } from '../protocol/types.ts';

/**
 * The opaque `requestState` of multi round-trip requests (2026-07-28, SEP-2322). The client echoes it byte for
 * byte, so it is the only place a stateless server can keep what it learnt in earlier rounds; the spec requires
 * servers to reject state that fails an integrity check. We seal it with AES-256-GCM: the client can neither
 * read nor alter it, and it is bound to the method, the tool or prompt name, the arguments and the caller it was
 * issued for, and expires (the spec's replay measures: basic/patterns/mrtr, "Server Requirements"). It is not
 * single-use: within its lifetime the same caller may retry the same request with it more than once, which is
 * harmless for a retry of the very same request; a one-time action needs a server-side store to consume it.
 */

/** What a sealed state is bound to: replaying it against another target, other arguments or caller fails. */
export interface StateBinding {
  method: string;
  name: string;
  /** The request's arguments (`params.arguments`); bound by a digest of their canonical JSON. */
  arguments: unknown;
  principal?: string;
}

/** Seals and opens request states with one key. */
export interface RequestStateCodec {
  /** True when the key is random to this process: a retry served by another instance cannot open the state. */
  readonly ephemeral: boolean;
  seal(state: JSONValue, binding: StateBinding): string;
  /** Returns the state, or throws -32602 when the token is malformed, altered, foreign or expired. */
  open(token: unknown, binding: StateBinding): JSONValue;
}

/** Version 2 binds the arguments too; a version-1 token is refused like any foreign one. */
const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bound on an accepted token, so a hostile client cannot make us base64-decode megabytes. */
const MAX_TOKEN_CHARS = 64 * 1024;

/** A digest of the arguments: the same for the same arguments in any key order. */
const argumentsDigest = (args: unknown) =>
  nodeCrypto()
    .createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('base64url');

const aad = (b: StateBinding) =>
  Buffer.from(JSON.stringify([VERSION, b.method, b.name, argumentsDigest(b.arguments), b.principal ?? null]));

const rejected = () =>
  new InvalidParamsError(
    'requestState is invalid or expired, or belongs to another request (tool, arguments or caller); ' +
      'retry the original request without it',
  );

/**
 * Creates a codec. `secret` must be the same on every instance that may serve a retry (set it from a secret
 * store in production); without one a random key is used, which only works while a single process serves the
 * whole exchange. `ttlMs` bounds how long a user may take to answer.
 */
export function createRequestStateCodec(
  options: { secret?: string | Uint8Array; ttlMs: number },
  now: () => number = Date.now,
): RequestStateCodec {
  const material = options.secret === undefined ? undefined : Buffer.from(options.secret);
  if (material && material.length < 16) throw new Error('requestState secret must be at least 16 bytes');
  // Derived on first use: most containers never seal a requestState, and a cold start need not derive the key.
  let derived: Buffer | undefined;
  const key = () =>
    (derived ??= Buffer.from(
      nodeCrypto().hkdfSync(
        'sha256',
        material ?? nodeCrypto().randomBytes(32),
        Buffer.alloc(0),
        'mcp request state v1',
        32,
      ),
    ));
  return {
    ephemeral: options.secret === undefined,
    seal(state, binding) {
      const iv = nodeCrypto().randomBytes(IV_BYTES);
      const cipher = nodeCrypto().createCipheriv('aes-256-gcm', key(), iv);
      cipher.setAAD(aad(binding));
      const plain = Buffer.from(JSON.stringify({ s: state, e: now() + options.ttlMs }));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(token, binding) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token))
        throw rejected();
      const raw = Buffer.from(token, 'base64url');
      if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) throw rejected();
      let payload: { s: JSONValue; e: number };
      try {
        const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', key(), raw.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(aad(binding));
        decipher.setAuthTag(raw.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
        const plain = Buffer.concat([
          decipher.update(raw.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]);
        payload = JSON.parse(plain.toString('utf8'));
      } catch {
        throw rejected();
      }
      if (typeof payload?.e !== 'number' || payload.e < now()) throw rejected();
      return payload.s;
    },
  };
}
