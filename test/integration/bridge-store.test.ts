import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStore } from '../../packages/bridge/src/dynamodb-store.ts';
import { createMemoryStore } from '../../packages/bridge/src/memory-store.ts';
import type { BridgeStore, CodeGrant, RefreshFamily } from '../../packages/bridge/src/store.ts';
import { startLocalDynamo, type LocalDynamo } from '../support/dynamodb.ts';

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

  it('rotates a family token by token', async () => {
    const store = make();
    const id = unique('family');
    expect(await store.createFamily(family(id, 'h1'), signal())).toBe(true);
    const first = await store.rotateRefresh(id, 'h1', 'h2', 'client-hash', now(), signal());
    expect(first).toEqual({ kind: 'rotated', family: family(id, 'h2') });
    expect((await store.rotateRefresh(id, 'h2', 'h3', 'client-hash', now(), signal())).kind).toBe('rotated');
  });

  it('revokes the family when a rotated-out token comes back, so the current one dies too', async () => {
    const store = make();
    const id = unique('family');
    await store.createFamily(family(id, 'h1'), signal());
    await store.rotateRefresh(id, 'h1', 'h2', 'client-hash', now(), signal());
    expect(await store.rotateRefresh(id, 'h1', 'hx', 'client-hash', now(), signal())).toEqual({
      kind: 'reused',
    });
    expect(await store.rotateRefresh(id, 'h2', 'h3', 'client-hash', now(), signal())).toEqual({
      kind: 'revoked',
    });
  });

  it('revokes the family when another client presents its current token', async () => {
    const store = make();
    const id = unique('family');
    await store.createFamily(family(id, 'h1'), signal());
    expect(await store.rotateRefresh(id, 'h1', 'h2', 'thief', now(), signal())).toEqual({ kind: 'reused' });
    expect(await store.rotateRefresh(id, 'h1', 'h2', 'client-hash', now(), signal())).toEqual({
      kind: 'revoked',
    });
  });

  it('reports an expired family, and an unknown one', async () => {
    const store = make();
    const id = unique('family');
    await store.createFamily({ ...family(id, 'h1'), expiresAt: now() + 5 }, signal());
    expect(await store.rotateRefresh(id, 'h1', 'h2', 'client-hash', now() + 10, signal())).toEqual({
      kind: 'expired',
    });
    expect(await store.rotateRefresh(unique('none'), 'h1', 'h2', 'client-hash', now(), signal())).toEqual({
      kind: 'unknown',
    });
  });

  it('keeps a revocation that arrives before the family exists, so the family can never be created', async () => {
    const store = make();
    const id = unique('family');
    await store.revokeFamily(id, now() + 3600, signal());
    expect(await store.createFamily(family(id), signal())).toBe(false);
  });
});
