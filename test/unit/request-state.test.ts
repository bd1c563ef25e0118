import { describe, expect, it } from 'vitest';
import { createRequestStateCodec } from '../../packages/server/src/input/request-state.ts';
import { ErrorCode, McpError } from '../../packages/server/src/protocol/errors.ts';

const binding = { method: 'tools/call', name: 'book_trip', arguments: { destination: 'Lisbon', qty: 1 } };
const secret = 'a-test-secret-of-enough-length';

function rejection(fn: () => unknown): McpError {
  try {
    fn();
  } catch (error) {
    return error as McpError;
  }
  throw new Error('expected a rejection');
}

describe('sealed requestState (2026-07-28 multi round-trip)', () => {
  it('opens to the very state it sealed', () => {
    const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
    const state = { step: 2, answers: ['Alice'], nested: { ok: true } };
    expect(codec.open(codec.seal(state, binding), binding)).toEqual(state);
  });

  it('hides the state from the client', () => {
    const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
    const token = codec.seal({ password: 'hunter2' }, binding);
    expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain('hunter2');
  });

  it('opens for the same arguments sent with their keys in another order', () => {
    const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
    const token = codec.seal('s', {
      ...binding,
      arguments: { a: 1, b: { x: [1, { q: 2, p: 3 }], y: null } },
    });
    const reordered = { ...binding, arguments: { b: { y: null, x: [1, { p: 3, q: 2 }] }, a: 1 } };
    expect(codec.open(token, reordered)).toBe('s');
  });

  it('opens on another instance that shares the secret', () => {
    const token = createRequestStateCodec({ secret, ttlMs: 60_000 }).seal('s', binding);
    expect(createRequestStateCodec({ secret, ttlMs: 60_000 }).open(token, binding)).toBe('s');
  });

  const codec = createRequestStateCodec({ secret, ttlMs: 60_000 });
  const good = codec.seal({ step: 1 }, binding);
  const flipped = Buffer.from(good, 'base64url');
  flipped.writeUInt8(flipped.readUInt8(flipped.length - 1) ^ 1, flipped.length - 1);
  it.each([
    ['a token with text appended', `${good}-TAMPERED`, binding],
    ['a token with one bit flipped', flipped.toString('base64url'), binding],
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
      'a token sealed with another secret',
      createRequestStateCodec({ ttlMs: 60_000 }).seal(1, binding),
      binding,
    ],
    ['a number instead of a string', 42, binding],
    ['an empty string', '', binding],
    ['a string that is not base64url', 'not base64!', binding],
    ['a token that is too short', 'AQID', binding],
    ['an oversized token', 'A'.repeat(70_000), binding],
  ])('refuses %s with -32602', (_name, token, target) => {
    const error = rejection(() => codec.open(token, target));
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(/requestState is invalid or expired/);
  });

  it('refuses a token once its time to live has passed', () => {
    let now = 1_000_000;
    const clocked = createRequestStateCodec({ secret, ttlMs: 1_000 }, () => now);
    const token = clocked.seal('s', binding);
    now += 999;
    expect(clocked.open(token, binding)).toBe('s');
    now += 2;
    expect(rejection(() => clocked.open(token, binding)).code).toBe(ErrorCode.InvalidParams);
  });

  it('says whether its key is random to this process', () => {
    expect(createRequestStateCodec({ ttlMs: 1 }).ephemeral).toBe(true);
    expect(createRequestStateCodec({ secret, ttlMs: 1 }).ephemeral).toBe(false);
  });

  it('refuses a secret shorter than 16 bytes at construction', () => {
    expect(() => createRequestStateCodec({ secret: 'short', ttlMs: 1 })).toThrow(/at least 16 bytes/);
  });
});
