import { nodeCrypto } from '../crypto.ts';
import { deadlineSignal, untilAborted } from '../deadline.ts';
import { errorFields, type Logger } from '../log.ts';
import { ErrorCode, InvalidParamsError, McpError } from '../protocol/errors.ts';
import { canonicalJson } from '../protocol/json.ts';
import type { JSONValue } from '../protocol/types.ts';
import {
  keyRingLoader,
  type KeyLabels,
  type KeyRing,
  type KeyRingLoader,
  type SealingKey,
} from '../sessions/session-keys.ts';
import { requestStateKeySource, type RequestStateOptions } from './request-state-options.ts';

/**
 * The opaque `requestState` of multi round-trip requests (2026-07-28, SEP-2322). The client echoes it byte for
 * byte, so it is the only place a stateless server can keep what it learnt in earlier rounds; the spec requires
 * servers to reject state that fails an integrity check. We seal it with AES-256-GCM: the client can neither
 * read nor alter it, and it is bound to the method, the tool or prompt name, the arguments and the caller it was
 * issued for, and expires (the spec's replay measures: basic/patterns/mrtr, "Server Requirements"). It is not
 * single-use: within its lifetime the same caller may retry the same request with it more than once, which is
 * harmless for a retry of the very same request; a one-time action needs a server-side store to consume it.
 *
 * The keys are the session keys' (the stack's Secrets Manager secret, or MCP_SESSION_SECRET), each through HKDF with
 * labels of its own, so every instance opens what any instance sealed and a rotation works as for session ids: the
 * newest key seals, every listed key opens. They are read on the first state to seal or open, within the request's
 * deadline; this module itself loads with the asking chunk, never at a cold start.
 */

/** What a sealed state is bound to: replaying it against another target, other arguments or caller fails. */
export interface StateBinding {
  method: string;
  name: string;
  /** The request's arguments (`params.arguments`); bound by a digest of their canonical JSON. */
  arguments: unknown;
  /** The caller's client key (`Principal.clientKey`): another client of the same person cannot replay the state. */
  principal?: string;
}

/** The request a state is sealed or opened for: its deadline bounds a key read, its logger hears of a failed one. */
export interface StateScope {
  log: Logger;
  /** Epoch ms by which the response must be on its way, if known. */
  deadline?: number;
}

/** Seals and opens request states. */
export interface RequestStateCodec {
  /** True when the key is random to this process: a retry served by another instance cannot open the state. */
  readonly ephemeral: boolean;
  /** Seals with the newest key; throws -32603 when the keys cannot be read in time. */
  seal(state: JSONValue, binding: StateBinding, scope: StateScope): Promise<string>;
  /** The state; throws -32602 when the token is malformed, altered, foreign or expired, -32603 without keys. */
  open(token: unknown, binding: StateBinding, scope: StateScope): Promise<JSONValue>;
}

/** Version 3 names its key (rotation); a version-2 token (one unnamed key) is refused like any foreign one. */
const VERSION = 3;
const KID_BYTES = 4;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KID_BYTES + IV_BYTES + TAG_BYTES;
/** Bound on an accepted token, so a hostile client cannot make us base64-decode megabytes. */
const MAX_TOKEN_CHARS = 64 * 1024;
/** A key read's time limit where a request has no deadline (a local server). */
const KEY_READ_MS = 5_000;

/** Request states: distinct from the session ids' labels, so the two never share a key. */
const REQUEST_STATE_KEY_LABELS: KeyLabels = {
  key: 'mcp request state v1',
  id: 'mcp request state key id v1',
};

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

/** -32603: the keys could not be read in time (a secret store that does not answer); the same request may retry. */
const keysUnavailable = (what: 'sealed' | 'opened') =>
  new McpError(
    ErrorCode.InternalError,
    `requestState cannot be ${what} right now: the keys that seal it could not be read; retry the same request shortly`,
  );

/** The ring, read (within the request's deadline) only when it is not at hand; `fresh` re-reads after a rotation. */
async function ringFor(
  keys: KeyRingLoader,
  scope: StateScope,
  what: 'sealed' | 'opened',
  fresh = false,
): Promise<KeyRing> {
  const kept = fresh ? undefined : keys.loaded();
  if (kept) return kept;
  const signal = deadlineSignal(scope.deadline) ?? AbortSignal.timeout(KEY_READ_MS);
  try {
    // Stop waiting at the deadline even if a store ignores the signal: the client still gets an answer.
    return await untilAborted(fresh ? keys.reload(signal) : keys.ring(signal), signal);
  } catch (error) {
    scope.log.error('request state keys cannot be read', { error: errorFields(error) });
    throw keysUnavailable(what);
  }
}

/** The key id a token names, or undefined when it is not shaped like one of ours. */
function tokenKeyId(token: unknown): string | undefined {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+$/.test(token))
    return undefined;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length <= HEADER_BYTES || raw[0] !== VERSION) return undefined;
  return raw.subarray(1, 1 + KID_BYTES).toString('hex');
}

/** The sealed payload, or undefined when the key, the binding or the bytes do not match. */
function decrypt(key: SealingKey, raw: Buffer, binding: StateBinding): unknown {
  try {
    const iv = raw.subarray(1 + KID_BYTES, 1 + KID_BYTES + IV_BYTES);
    const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', key.secret, iv);
    decipher.setAAD(aad(binding));
    decipher.setAuthTag(raw.subarray(1 + KID_BYTES + IV_BYTES, HEADER_BYTES));
    const plain = Buffer.concat([decipher.update(raw.subarray(HEADER_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Creates a codec. Every instance that may serve a retry needs the same keys (`sessionKeys`, or an explicit
 * `secret`); without either a random key is used, which only works while a single process serves the whole
 * exchange. `ttlMs` bounds how long a user may take to answer.
 */
export function createRequestStateCodec(
  options: RequestStateOptions,
  now: () => number = Date.now,
): RequestStateCodec {
  const shared = requestStateKeySource(options);
  const keys = keyRingLoader(shared ?? [nodeCrypto().randomBytes(32)], REQUEST_STATE_KEY_LABELS, now);
  return {
    ephemeral: shared === undefined,
    async seal(state, binding, scope) {
      const key = (await ringFor(keys, scope, 'sealed')).current;
      const iv = nodeCrypto().randomBytes(IV_BYTES);
      const cipher = nodeCrypto().createCipheriv('aes-256-gcm', key.secret, iv);
      cipher.setAAD(aad(binding));
      const plain = Buffer.from(JSON.stringify({ s: state, e: now() + options.ttlMs }));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), key.id, iv, cipher.getAuthTag(), body]).toString(
        'base64url',
      );
    },
    async open(token, binding, scope) {
      const kid = tokenKeyId(token);
      if (kid === undefined) throw rejected();
      // A key this instance does not know may be one rotated in elsewhere: read the keys again (once a minute).
      const key =
        (await ringFor(keys, scope, 'opened')).byId.get(kid) ??
        (await ringFor(keys, scope, 'opened', true)).byId.get(kid);
      const payload = key && decrypt(key, Buffer.from(token as string, 'base64url'), binding);
      const sealed = payload as { s?: JSONValue; e?: unknown } | undefined;
      if (typeof sealed?.e !== 'number' || sealed.e < now()) throw rejected();
      return sealed.s as JSONValue;
    },
  };
}
