import { describe, expect, it } from 'vitest';
import { createRequestStateCodec } from '../../src/input/request-state.ts';
import { ErrorCode, McpError } from '../../src/protocol/errors.ts';
import { silentLogger } from '../../src/log.ts';
import { createSessions } from '../../src/sessions/sessions.ts';

const binding = { method: 'tools/call', name: 'book_trip', arguments: { destination: 'Lisbon', qty: 1 } };
const secret = 'a-test-secret-of-enough-length';
const scope = { log: silentLogger };
const KEY_A = 'request-state-key-a-0123456789abcdef';
const KEY_B = 'request-state-key-b-0123456789abcdef';

async function rejection(work: Promise<unknown>): Promise<McpError> {
  try {
    await work;
  } catch (error) {
    return error as McpError;
  }
  throw new Error('expected a rejection');
}

describe('sealed requestState (2026-07-28 multi round-trip)', () => {
  it('opens to the very state it sealed', async () => {
    const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
    const state = { step: 2, answers: ['Alice'], nested: { ok: true } };
    expect(await codec.open(await codec.seal(state, binding, scope), binding, scope)).toEqual(state);
  });

  it('hides the state from the client', async () => {
    const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
    const token = await codec.seal({ password: 'hunter2' }, binding, scope);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('hunter2');
  });

  it('opens for the same arguments sent with their keys in another order', async () => {
    const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
    const token = await codec.seal(
      's',
      { ...binding, arguments: { a: 1, b: { x: [1, { q: 2, p: 3 }], y: null } } },
      scope,
    );
    const reordered = { ...binding, arguments: { b: { y: null, x: [1, { p: 3, q: 2 }] }, a: 1 } };
    expect(await codec.open(token, reordered, scope)).toBe('s');
  });

  it('opens on another instance that shares the secret', async () => {
    const token = await createRequestStateCodec({ secret, ttlMs: 60_000 }).seal('s', binding, scope);
    expect(await createRequestStateCodec({ secret, ttlMs: 60_000 }).open(token, binding, scope)).toBe('s');
  });

  const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
  const good = codec.seal({ step: 1 }, binding, scope);
  const flipped = good.then((token) => {
    const raw = Buffer.from(token, 'base64url');
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 1, raw.length - 1);
    return raw.toString('base64url');
  });
  // A version-2 token (before key ids): version byte, IV, tag and a body, all well-formed.
  const version2 = Buffer.concat([Buffer.from([2]), Buffer.alloc(60, 7)]).toString('base64url');
  it.each([
    ['a token with text appended', good.then((t) => `${t}-TAMPERED`), binding],
    ['a token with one bit flipped', flipped, binding],
    ['a token replayed against another tool', good, { ...binding, name: 'other_tool' }],
    ['a token replayed against another method', good, { ...binding, method: 'prompts/get' }],
    [
      'a token replayed with other arguments',
      good,
      { ...binding, arguments: { destination: 'Lisbon', qty: 1000 } },
    ],
    [
      'a token replayed with an extra argument',
      good,
      { ...binding, arguments: { ...binding.arguments, vip: true } },
    ],
    ['a token replayed without arguments', good, { ...binding, arguments: undefined }],
    ['a token replayed by another caller', good, { ...binding, principal: 'mallory' }],
    [
      'a token sealed with a random key',
      createRequestStateCodec({ ttlMs: 60_000 }).seal(1, binding, scope),
      binding,
    ],
    [
      'a token sealed under other session keys',
      createRequestStateCodec({ sessionKeys: [KEY_B], ttlMs: 60_000 }).seal(1, binding, scope),
      binding,
    ],
    ['a token of the format before key ids', version2, binding],
    ['a number instead of a string', 42, binding],
    ['an empty string', '', binding],
    ['a string that is not base64url', 'not base64!', binding],
    ['a token that is too short', 'AQID', binding],
    ['an oversized token', 'A'.repeat(70_000), binding],
  ])('refuses %s with -32602', async (_name, token, target) => {
    const error = await rejection(codec.open(await token, target, scope));
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(/requestState is invalid or expired/);
  });

  it('refuses a token once its time to live has passed', async () => {
    let now = 1_000_000;
    const clocked = createRequestStateCodec({ secret, ttlMs: 1_000 }, () => now);
    const token = await clocked.seal('s', binding, scope);
    now += 999;
    expect(await clocked.open(token, binding, scope)).toBe('s');
    now += 2;
    expect((await rejection(clocked.open(token, binding, scope))).code).toBe(ErrorCode.InvalidParams);
  });

  it('says whether its key is random to this process', () => {
    expect(createRequestStateCodec({ ttlMs: 1 }).ephemeral).toBe(true);
    expect(createRequestStateCodec({ secret, ttlMs: 1 }).ephemeral).toBe(false);
    expect(createRequestStateCodec({ sessionKeys: [KEY_A], ttlMs: 1 }).ephemeral).toBe(false);
  });

  it('refuses a secret shorter than 16 bytes at construction', () => {
    expect(() => createRequestStateCodec({ secret: 'short', ttlMs: 1 })).toThrow(/at least 16 bytes/);
  });
});

describe('requestState keyed by the session keys', () => {
  it('opens on another instance holding the same session keys', async () => {
    const token = await createRequestStateCodec({ sessionKeys: [KEY_A], ttlMs: 60_000 }).seal(
      's',
      binding,
      scope,
    );
    const other = createRequestStateCodec({ sessionKeys: [KEY_A], ttlMs: 60_000 });
    expect(await other.open(token, binding, scope)).toBe('s');
  });

  it('rotates: the newest key seals, an older one still opens until it is removed', async () => {
    const old = await createRequestStateCodec({ sessionKeys: [KEY_A], ttlMs: 60_000 }).seal(
      1,
      binding,
      scope,
    );
    const rotated = createRequestStateCodec({ sessionKeys: [KEY_B, KEY_A], ttlMs: 60_000 });
    expect(await rotated.open(old, binding, scope)).toBe(1);
    const fresh = await rotated.seal(2, binding, scope);
    const onlyNew = createRequestStateCodec({ sessionKeys: [KEY_B], ttlMs: 60_000 });
    expect(await onlyNew.open(fresh, binding, scope)).toBe(2);
    expect((await rejection(onlyNew.open(old, binding, scope))).code).toBe(ErrorCode.InvalidParams);
  });

  it('never uses the session key itself: a session id is no requestState, and a state is no session id', async () => {
    const signal = AbortSignal.timeout(5_000);
    const sessions = createSessions({ keys: [KEY_A] });
    const claims = { protocolVersion: '2025-11-25', capabilities: {} };
    const id = await sessions.issue(claims, undefined, signal);
    const states = createRequestStateCodec({ sessionKeys: [KEY_A], ttlMs: 60_000 });
    expect((await rejection(states.open(id, binding, scope))).code).toBe(ErrorCode.InvalidParams);
    const token = await states.seal('s', binding, scope);
    expect(await sessions.open(token, undefined, signal)).toBeUndefined();
    // Same layout (version, 4-byte key id, IV, tag): the key ids differ, so the keys do too.
    expect(Buffer.from(token, 'base64url').subarray(1, 5)).not.toEqual(
      Buffer.from(id, 'base64url').subarray(1, 5),
    );
  });

  it('reads a secret store once, within the deadline, and again when a state names a key it does not know', async () => {
    let value = KEY_A;
    const signals: AbortSignal[] = [];
    let now = 1_000_000;
    const reader = async (signal: AbortSignal) => {
      signals.push(signal);
      return value;
    };
    const sealer = createRequestStateCodec({ sessionKeys: [KEY_B, KEY_A], ttlMs: 60_000 });
    const rotatedState = await sealer.seal('s', binding, scope);
    const states = createRequestStateCodec({ sessionKeys: reader, ttlMs: 600_000 }, () => now);
    const mine = await states.seal('m', binding, { ...scope, deadline: Date.now() + 10_000 });
    expect(await states.open(mine, binding, scope)).toBe('m');
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
    // Another instance sealed with a key added in front (KEY_B): within a minute of the last read, no read again.
    expect((await rejection(states.open(rotatedState, binding, scope))).code).toBe(ErrorCode.InvalidParams);
    expect(signals).toHaveLength(1);
    value = `${KEY_B},${KEY_A}`;
    now += 61_000;
    expect(await states.open(rotatedState, binding, scope)).toBe('s');
    expect(await states.open(mine, binding, scope)).toBe('m');
    expect(signals).toHaveLength(2);
  });

  it('answers -32603 saying what failed when the secret store cannot be read, and reads again next time', async () => {
    let fail = true;
    const errors: string[] = [];
    const log = { ...silentLogger, error: (message: string) => void errors.push(message) };
    const states = createRequestStateCodec({
      sessionKeys: async () => {
        if (fail) throw new Error('secret store timed out');
        return KEY_A;
      },
      ttlMs: 60_000,
    });
    const error = await rejection(states.seal('s', binding, { log }));
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toMatch(/cannot be sealed right now: the keys .* could not be read; retry/);
    expect(errors).toEqual(['request state keys cannot be read']);
    fail = false;
    const token = await states.seal('s', binding, { log });
    expect(await states.open(token, binding, { log })).toBe('s');
  });

  it('stops waiting for a secret store that does not answer a margin before the deadline, whatever the store does', async () => {
    const states = createRequestStateCodec({
      sessionKeys: () => new Promise<string>(() => {}),
      ttlMs: 60_000,
    });
    const started = Date.now();
    const error = await rejection(
      states.seal('s', binding, { log: silentLogger, deadline: started + 1_300 }),
    );
    expect(error.code).toBe(ErrorCode.InternalError);
    // The answer margin (1 s) before the deadline: time left to answer.
    expect(Date.now()).toBeLessThan(started + 1_300);
  });
});
