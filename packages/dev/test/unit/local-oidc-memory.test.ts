import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../src/local/oidc-memory.ts';

/** A clock the test moves. */
function clock(start = 1_000_000) {
  let at = start;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}

describe("the embedded OpenID provider's in-memory storage", () => {
  it('finds what it keeps until it expires, per model', async () => {
    const time = clock();
    const adapters = memoryAdapter(time.now);
    const sessions = adapters('Session');
    const codes = adapters('AuthorizationCode');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'dev' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'dev' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'dev' });
    expect(await codes.find('s1')).toBeUndefined();
    time.advance(60_001);
    expect(await sessions.find('s1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toBeUndefined();
  });

  it('keeps a copy: a later change to the payload object is not stored', async () => {
    const adapter = memoryAdapter()('Interaction');
    const payload = { kind: 'Interaction', params: { a: 1 } };
    await adapter.upsert('i1', payload, 60);
    payload.params.a = 2;
    expect(await adapter.find('i1')).toMatchObject({ params: { a: 1 } });
  });

  it('marks a consumed code with the time it was consumed', async () => {
    const time = clock(5_000_000);
    const codes = memoryAdapter(time.now)('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await codes.consume('c1');
    expect(await codes.find('c1')).toMatchObject({ consumed: 5_000 });
  });

  it('revokes everything a grant issued, in every model, and destroys by id', async () => {
    const adapters = memoryAdapter();
    const codes = adapters('AuthorizationCode');
    const tokens = adapters('AccessToken');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await tokens.upsert('t1', { grantId: 'g1' }, 60);
    await tokens.upsert('t2', { grantId: 'g2' }, 60);
    await tokens.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await tokens.find('t1')).toBeUndefined();
    expect(await tokens.find('t2')).toBeDefined();
    await tokens.destroy('t2');
    expect(await tokens.find('t2')).toBeUndefined();
  });

  it('stays bounded: the oldest entries go first past its cap', async () => {
    const sessions = memoryAdapter()('Session');
    for (let i = 0; i <= 10_001; i++) await sessions.upsert(`s${i}`, { uid: `u${i}` }, 3600);
    expect(await sessions.find('s0')).toBeUndefined();
    expect(await sessions.findByUid('u0')).toBeUndefined();
    expect(await sessions.find('s10001')).toBeDefined();
  });
});
