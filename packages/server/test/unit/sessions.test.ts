import { describe, expect, it } from 'vitest';
import { createSessions } from '../../src/sessions/sessions.ts';
import { keyRingLoader, SESSION_KEY_LABELS } from '../../src/sessions/session-keys.ts';

const KEY_A = 'session-key-a-0123456789abcdefghijkl';
const KEY_B = 'session-key-b-0123456789abcdefghijkl';
const signal = () => AbortSignal.timeout(5_000);
const CLAIMS = {
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } },
  clientInfo: { name: 'claude-code', version: '2.1.76', title: 'Claude Code', extra: 'dropped' },
};

describe('sealed session ids', () => {
  it('carry what the client declared, readable by any instance holding the key', async () => {
    const id = await createSessions({ keys: [KEY_A] }).issue(CLAIMS, undefined, signal());
    // Visible ASCII only (spec: transports, "Session Management").
    expect(id).toMatch(/^[\x21-\x7e]+$/);
    const other = createSessions({ keys: [KEY_A] });
    expect(await other.open(id, undefined, signal())).toEqual({
      id,
      protocolVersion: '2025-11-25',
      capabilities: CLAIMS.capabilities,
      clientInfo: { name: 'claude-code', version: '2.1.76', title: 'Claude Code' },
    });
  });

  it('never repeat: each initialize gets its own id', async () => {
    const sessions = createSessions({ keys: [KEY_A] });
    const ids = await Promise.all([1, 2, 3].map(() => sessions.issue(CLAIMS, undefined, signal())));
    expect(new Set(ids).size).toBe(3);
  });

  it.each([
    ['sealed by another key', async (id: string) => ({ id, sessions: createSessions({ keys: [KEY_B] }) })],
    [
      'altered in one character',
      async (id: string) => ({
        id: id.slice(0, 40) + (id[40] === 'A' ? 'B' : 'A') + id.slice(41),
        sessions: createSessions({ keys: [KEY_A] }),
      }),
    ],
    [
      'cut short',
      async (id: string) => ({ id: id.slice(0, 30), sessions: createSessions({ keys: [KEY_A] }) }),
    ],
    ['not base64url', async () => ({ id: 'not a session!', sessions: createSessions({ keys: [KEY_A] }) })],
    ['huge', async () => ({ id: 'A'.repeat(100_000), sessions: createSessions({ keys: [KEY_A] }) })],
  ])('do not open when %s', async (_label, mutate) => {
    const id = await createSessions({ keys: [KEY_A] }).issue(CLAIMS, undefined, signal());
    const { id: presented, sessions } = await mutate(id);
    expect(await sessions.open(presented, undefined, signal())).toBeUndefined();
  });

  it('are bound to the caller when authorization is on', async () => {
    const sessions = createSessions({ keys: [KEY_A] });
    const id = await sessions.issue(CLAIMS, 'caller-1', signal());
    expect(await sessions.open(id, 'caller-1', signal())).toBeDefined();
    expect(await sessions.open(id, 'caller-2', signal())).toBeUndefined();
    expect(await sessions.open(id, undefined, signal())).toBeUndefined();
  });

  it('expire after their lifetime', async () => {
    let now = 1_000_000;
    const sessions = createSessions({ keys: [KEY_A], ttlMs: 60_000 }, () => now);
    const id = await sessions.issue(CLAIMS, undefined, signal());
    now += 59_999;
    expect(await sessions.open(id, undefined, signal())).toBeDefined();
    now += 1;
    expect(await sessions.open(id, undefined, signal())).toBeUndefined();
  });

  it('rotate: the newest key seals, older ones still open until removed', async () => {
    const old = await createSessions({ keys: [KEY_A] }).issue(CLAIMS, undefined, signal());
    const rotated = createSessions({ keys: [KEY_B, KEY_A] });
    const fresh = await rotated.issue(CLAIMS, undefined, signal());
    expect(await rotated.open(old, undefined, signal())).toBeDefined();
    expect(await createSessions({ keys: [KEY_B] }).open(fresh, undefined, signal())).toBeDefined();
    expect(await createSessions({ keys: [KEY_B] }).open(old, undefined, signal())).toBeUndefined();
  });

  it('keep unusually large capabilities by name only, so the id stays small', async () => {
    const sessions = createSessions({ keys: [KEY_A] });
    const capabilities = { elicitation: {}, experimental: { blob: 'x'.repeat(5_000) } };
    const id = await sessions.issue({ ...CLAIMS, capabilities }, undefined, signal());
    expect(id.length).toBeLessThan(1_000);
    expect((await sessions.open(id, undefined, signal()))!.capabilities).toEqual({
      elicitation: {},
      experimental: {},
    });
  });

  it('keep capabilities nested thousands of levels deep by name only, without overflowing the stack', async () => {
    const sessions = createSessions({ keys: [KEY_A] });
    const deep = JSON.parse('{"x":'.repeat(10_000) + '{}' + '}'.repeat(10_000)) as Record<string, unknown>;
    const deepArray = JSON.parse('['.repeat(10_000) + ']'.repeat(10_000)) as unknown[];
    const capabilities = { elicitation: { form: {} }, sampling: deep, experimental: { list: deepArray } };
    const id = await sessions.issue({ ...CLAIMS, capabilities }, undefined, signal());
    expect((await sessions.open(id, undefined, signal()))!.capabilities).toEqual({
      elicitation: { form: {} },
      sampling: {},
      experimental: {},
    });
  });

  it('read keys from a secret store once, again only for an unknown key id, and retry after a failure', async () => {
    let now = 0;
    let value = KEY_A;
    let reads = 0;
    let failing = true;
    const sessions = createSessions(
      {
        keys: async () => {
          reads++;
          if (failing) throw new Error('secret store unreachable');
          return value;
        },
      },
      () => now,
    );
    await expect(sessions.issue(CLAIMS, undefined, signal())).rejects.toThrow('unreachable');
    failing = false;
    const id = await sessions.issue(CLAIMS, undefined, signal());
    expect(await sessions.open(id, undefined, signal())).toBeDefined();
    expect(reads).toBe(2);
    // Another instance rotated in KEY_B; an id sealed with it makes this one read the secret again (once a minute).
    const foreign = await createSessions({ keys: [KEY_B, KEY_A] }).issue(CLAIMS, undefined, signal());
    value = `${KEY_B},${KEY_A}`;
    expect(await sessions.open(foreign, undefined, signal())).toBeUndefined();
    expect(reads).toBe(2);
    now += 60_001;
    expect(await sessions.open(foreign, undefined, signal())).toBeDefined();
    expect(reads).toBe(3);
    expect(await sessions.open(id, undefined, signal())).toBeDefined();
  });
});

describe('sealed session ids under attack', () => {
  it('stop opening, and stop being sealed, with a key removed from the secret (revoked) within minutes', async () => {
    let now = Date.now();
    let value = `${KEY_A}`;
    const sessions = createSessions({ keys: async () => value }, () => now);
    const before = await sessions.issue(CLAIMS, undefined, signal());
    expect(await sessions.open(before, undefined, signal())).toBeDefined();
    // KEY_A leaked: the operator replaces it. A warm instance that only ever sees ids of KEY_A must notice anyway.
    value = KEY_B;
    now += 5 * 60_000;
    expect(await sessions.open(before, undefined, signal())).toBeUndefined();
    const after = await sessions.issue(CLAIMS, undefined, signal());
    expect(await createSessions({ keys: [KEY_B] }).open(after, undefined, signal())).toBeDefined();
  });

  it('keep the keys they have when the secret store fails at a refresh, and read it at most once a minute', async () => {
    let now = 0;
    let reads = 0;
    let failing = false;
    const sessions = createSessions(
      {
        keys: async () => {
          reads++;
          if (failing) throw new Error('secret store unreachable');
          return KEY_A;
        },
      },
      () => now,
    );
    const id = await sessions.issue(CLAIMS, undefined, signal());
    failing = true;
    now += 5 * 60_000;
    expect(await sessions.open(id, undefined, signal())).toBeDefined();
    expect(await sessions.open(id, undefined, signal())).toBeDefined();
    expect(reads).toBe(2);
    now += 60_001;
    expect(await sessions.open(id, undefined, signal())).toBeDefined();
    expect(reads).toBe(3);
  });
  it('open under one spelling only: other base64url spellings of the same bytes are unknown sessions', async () => {
    const sessions = createSessions({ keys: [KEY_A] });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let spellings = 0;
    // Ids of each length modulo 3 (slack bits in the last character, or none).
    for (const name of ['a', 'ab', 'abc']) {
      const id = await sessions.issue({ ...CLAIMS, clientInfo: { name } }, undefined, signal());
      const bytes = Buffer.from(id, 'base64url');
      const variants = [...alphabet].flatMap((c) => [id.slice(0, -1) + c, id + c]);
      for (const variant of variants.filter((v) => v !== id && Buffer.from(v, 'base64url').equals(bytes))) {
        spellings++;
        expect(await sessions.open(variant, undefined, signal())).toBeUndefined();
      }
    }
    expect(spellings).toBeGreaterThan(0);
  });
});

describe('sealed session ids of hostile or unusual declarations', () => {
  const huge = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`cap-${i}`, {}]));
  it.each([
    ['thousands of capability names', { ...huge(5_000), elicitation: { form: {} } }],
    [
      'capabilities in non-ASCII text just under the size cap',
      { elicitation: {}, x: { t: '€'.repeat(990) } },
    ],
    ['capabilities of escaped control characters', { elicitation: {}, x: { t: '\u0001'.repeat(160) } }],
  ])('stay small enough to open again: %s', async (_label, capabilities) => {
    const sessions = createSessions({ keys: [KEY_A] });
    const clientInfo = { name: '\u0000'.repeat(64), version: '😀'.repeat(40), title: '€'.repeat(64) };
    const id = await sessions.issue(
      { protocolVersion: '2025-11-25', capabilities, clientInfo },
      undefined,
      signal(),
    );
    expect(id.length).toBeLessThanOrEqual(4_096);
    const opened = await sessions.open(id, undefined, signal());
    expect(opened).toBeDefined();
    expect(opened!.capabilities.elicitation).toBeDefined();
  });
});

describe('a key ring read from a secret store', () => {
  it('is at hand for five minutes only, so a synchronous user (requestState) reads it again and drops a removed key', async () => {
    let now = 0;
    let value = KEY_A;
    const keys = keyRingLoader(
      async () => value,
      SESSION_KEY_LABELS,
      () => now,
    );
    const first = await keys.ring(signal());
    expect(keys.loaded()).toBe(first);
    value = KEY_B;
    now += 5 * 60_000;
    expect(keys.loaded()).toBeUndefined();
    const second = await keys.ring(signal());
    expect(second.current.id.equals(first.current.id)).toBe(false);
    expect(second.byId.has(first.current.id.toString('hex'))).toBe(false);
    expect(keys.loaded()).toBe(second);
  });
});
