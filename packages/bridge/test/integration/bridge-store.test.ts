import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStore } from '../../src/dynamodb-store.ts';
import { createMemoryStore } from '../../src/memory-store.ts';
import type { BridgeStore, CodeGrant, RefreshFamily } from '../../src/store.ts';
import { startLocalDynamo, type LocalDynamo } from '@mcp-lambda/dev/testing';

/**
 * The bridge store's contract, run against both implementations: in memory (local, tests) and DynamoDB (deployed),
 * the latter against dynalite, a DynamoDB-compatible server, so its conditional writes really run.
 */

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

const signal = () => AbortSignal.timeout(5_000);
const now = () => Math.floor(Date.now() / 1000);
let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now()}-${(counter += 1)}`;
/** The fixtures' own clock, read once, so a fixture built twice in one test is the same value across a second boundary. */
const fixtureNow = now();

const grant = (): CodeGrant => ({
  clientHash: 'client-hash',
  redirectUri: 'http://127.0.0.1:4000/cb',
  codeChallenge: 'c'.repeat(43),
  scope: 'mcp offline_access',
  refresh: true,
  subject: 'user-1',
  resource: 'https://mcp.example.com/mcp',
  expiresAt: fixtureNow + 600,
});

const family = (id: string, tokenHash = 'hash-1'): RefreshFamily => ({
  id,
  clientHash: 'client-hash',
  subject: 'user-1',
  scope: 'mcp',
  resource: 'https://mcp.example.com/mcp',
  tokenHash,
  issuedAt: fixtureNow,
  expiresAt: fixtureNow + 3600,
});

describe.each([
  { name: 'memory', make: (): BridgeStore => createMemoryStore() },
  {
    name: 'DynamoDB (dynalite)',
    make: (): BridgeStore =>
      createDynamoStore({ tableName: dynamo.tableName, endpoint: dynamo.endpoint, region: 'us-east-1' }),
  },
])('the $name store', ({ make }) => {
  it('redeems a code once, with the grant it was saved with', async () => {
    const store = make();
    const code = unique('code');
    await store.saveCode(code, grant(), now() + 86_400, signal());
    expect(await store.redeemCode(code, 'family-a', signal())).toEqual({ kind: 'redeemed', grant: grant() });
  });

  it('reports a second redemption as a replay naming the family of the first', async () => {
    const store = make();
    const code = unique('code');
    await store.saveCode(code, grant(), now() + 86_400, signal());
    await store.redeemCode(code, 'family-first', signal());
    expect(await store.redeemCode(code, 'family-second', signal())).toEqual({
      kind: 'replayed',
      familyId: 'family-first',
    });
  });

  it('lets exactly one of many concurrent redemptions win', async () => {
    const store = make();
    const code = unique('code');
    await store.saveCode(code, grant(), now() + 86_400, signal());
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.redeemCode(code, `f${i}`, signal())),
    );
    expect(results.filter((r) => r.kind === 'redeemed')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'replayed')).toHaveLength(7);
  });

  it('knows nothing of an unknown code or one past its retention', async () => {
    const store = make();
    expect(await store.redeemCode(unique('nope'), 'f', signal())).toEqual({ kind: 'unknown' });
    const code = unique('code');
    await store.saveCode(code, grant(), now() - 1, signal());
    expect(await store.redeemCode(code, 'f', signal())).toEqual({ kind: 'unknown' });
  });

  it('refuses to save the same code hash twice', async () => {
    const store = make();
    const code = unique('code');
    await store.saveCode(code, grant(), now() + 60, signal());
    await expect(store.saveCode(code, grant(), now() + 60, signal())).rejects.toThrow();
  });

  it('reads a code without using it, then reports the family that used it', async () => {
    const store = make();
    const code = unique('code');
    const withUpstream = { ...grant(), upstream: 'sealed-provider-token' };
    await store.saveCode(code, withUpstream, now() + 86_400, signal());
    expect(await store.readCode(code, signal())).toEqual({ grant: withUpstream, usedBy: undefined });
    expect(await store.redeemCode(code, 'family-a', signal())).toEqual({
      kind: 'redeemed',
      grant: withUpstream,
    });
    // The used code keeps no copy of the provider's token: it lives in the family now.
    expect(await store.readCode(code, signal())).toEqual({ grant: grant(), usedBy: 'family-a' });
    expect(await store.readCode(unique('none'), signal())).toBeUndefined();
  });

  it('commits a rotation only over the current token, remembering the one it replaced and when', async () => {
    const store = make();
    const id = unique('family');
    expect(await store.createFamily({ ...family(id, 'h1'), upstream: 'u1' }, signal())).toBe(true);
    const rotation = {
      familyId: id,
      presentedHash: 'h1',
      nextHash: 'h2',
      clientHash: 'client-hash',
      nowSeconds: now(),
    };
    expect(await store.commitRotation({ ...rotation, upstream: 'u2' }, signal())).toBe(true);
    expect(await store.readFamily(id, signal())).toEqual({
      kind: 'family',
      family: { ...family(id, 'h2'), previousHash: 'h1', rotatedAt: rotation.nowSeconds, upstream: 'u2' },
    });
    // The same rotation again (a concurrent refresh that lost) does not commit; nor does another client's.
    expect(await store.commitRotation(rotation, signal())).toBe(false);
    expect(
      await store.commitRotation({ ...rotation, presentedHash: 'h2', clientHash: 'thief' }, signal()),
    ).toBe(false);
    // Without a new provider token the family keeps the one it had.
    expect(await store.commitRotation({ ...rotation, presentedHash: 'h2', nextHash: 'h3' }, signal())).toBe(
      true,
    );
    const read = await store.readFamily(id, signal());
    expect(read.kind === 'family' && read.family).toMatchObject({
      tokenHash: 'h3',
      previousHash: 'h2',
      upstream: 'u2',
    });
  });

  it('lets exactly one of many concurrent rotations of one token commit', async () => {
    const store = make();
    const id = unique('family');
    await store.createFamily(family(id, 'h1'), signal());
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        store.commitRotation(
          { familyId: id, presentedHash: 'h1', nextHash: 'h2', clientHash: 'client-hash', nowSeconds: now() },
          signal(),
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('commits nothing to a revoked or expired family, and forgets the provider token of a revoked one', async () => {
    const store = make();
    const revoked = unique('family');
    await store.createFamily({ ...family(revoked, 'h1'), upstream: 'u1' }, signal());
    await store.revokeFamily(revoked, now() + 3600, signal());
    expect(await store.readFamily(revoked, signal())).toEqual({ kind: 'revoked' });
    const rotation = { presentedHash: 'h1', nextHash: 'h2', clientHash: 'client-hash', nowSeconds: now() };
    expect(await store.commitRotation({ ...rotation, familyId: revoked }, signal())).toBe(false);
    const expired = unique('family');
    await store.createFamily({ ...family(expired, 'h1'), expiresAt: now() + 5 }, signal());
    expect(
      await store.commitRotation({ ...rotation, familyId: expired, nowSeconds: now() + 10 }, signal()),
    ).toBe(false);
    expect(await store.readFamily(unique('none'), signal())).toEqual({ kind: 'unknown' });
  });

  it('records a sign-out per subject, keeping the latest', async () => {
    const store = make();
    const subject = unique('user');
    expect(await store.signedOutAt(subject, signal())).toBeUndefined();
    await store.signOut(subject, 1_000, now() + 3600, signal());
    await store.signOut(subject, 900, now() + 3600, signal());
    expect(await store.signedOutAt(subject, signal())).toBe(1_000);
    await store.signOut(subject, 2_000, now() + 3600, signal());
    expect(await store.signedOutAt(subject, signal())).toBe(2_000);
    expect(await store.signedOutAt(unique('user'), signal())).toBeUndefined();
  });

  it('keeps a revocation that arrives before the family exists, so the family can never be created', async () => {
    const store = make();
    const id = unique('family');
    await store.revokeFamily(id, now() + 3600, signal());
    expect(await store.createFamily(family(id), signal())).toBe(false);
  });
});
