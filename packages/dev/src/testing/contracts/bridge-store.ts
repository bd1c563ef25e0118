import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { BridgeStore } from '@mcp-lambda/bridge';
import { assertHas, checks, type ContractCheck, type MakeStore } from './check.ts';

type CodeGrant = Parameters<BridgeStore['saveCode']>[1];
type RefreshFamily = Parameters<BridgeStore['createFamily']>[0];

const signal = () => AbortSignal.timeout(5_000);
const now = () => Math.floor(Date.now() / 1000);
const unique = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

/** A code's grant; `at` is the fixtures' clock, read once per check so one built twice is the same value. */
const grant = (at: number): CodeGrant => ({
  clientHash: 'client-hash',
  redirectUri: 'http://127.0.0.1:4000/cb',
  codeChallenge: 'c'.repeat(43),
  scope: 'mcp offline_access',
  refresh: true,
  subject: 'user-1',
  resource: 'https://mcp.example.com/mcp',
  expiresAt: at + 600,
});

const family = (id: string, at: number, tokenHash = 'hash-1'): RefreshFamily => ({
  id,
  clientHash: 'client-hash',
  subject: 'user-1',
  scope: 'mcp',
  resource: 'https://mcp.example.com/mcp',
  tokenHash,
  issuedAt: at,
  expiresAt: at + 3600,
});

/** A new code saved in `store`, retained a day. */
async function savedCode(store: BridgeStore, codeGrant: CodeGrant): Promise<string> {
  const code = unique('code');
  await store.saveCode(code, codeGrant, now() + 86_400, signal());
  return code;
}

/** Authorization codes: redeemed once (exactly one of concurrent redemptions), replays name the first family. */
const codeChecks: Record<string, (store: BridgeStore) => Promise<void>> = {
  'redeems a code once, with the grant it was saved with': async (store) => {
    const at = now();
    const code = await savedCode(store, grant(at));
    assert.deepStrictEqual(await store.redeemCode(code, 'family-a', signal()), {
      kind: 'redeemed',
      grant: grant(at),
    });
  },
  'reports a second redemption as a replay naming the family of the first': async (store) => {
    const code = await savedCode(store, grant(now()));
    await store.redeemCode(code, 'family-first', signal());
    assert.deepStrictEqual(await store.redeemCode(code, 'family-second', signal()), {
      kind: 'replayed',
      familyId: 'family-first',
    });
  },
  'lets exactly one of many concurrent redemptions win': async (store) => {
    const code = await savedCode(store, grant(now()));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.redeemCode(code, `f${i}`, signal())),
    );
    assert.equal(results.filter((r) => r.kind === 'redeemed').length, 1);
    assert.equal(results.filter((r) => r.kind === 'replayed').length, 7);
  },
  'knows nothing of an unknown code or one past its retention': async (store) => {
    assert.deepStrictEqual(await store.redeemCode(unique('nope'), 'f', signal()), { kind: 'unknown' });
    const code = unique('code');
    await store.saveCode(code, grant(now()), now() - 1, signal());
    assert.deepStrictEqual(await store.redeemCode(code, 'f', signal()), { kind: 'unknown' });
  },
  'refuses to save the same code hash twice': async (store) => {
    const code = unique('code');
    await store.saveCode(code, grant(now()), now() + 60, signal());
    await assert.rejects(() => store.saveCode(code, grant(now()), now() + 60, signal()));
  },
  'reads a code without using it, then reports the family that used it, without the provider token': async (
    store,
  ) => {
    const at = now();
    const withUpstream = { ...grant(at), upstream: 'sealed-provider-token' };
    const code = await savedCode(store, withUpstream);
    assert.deepStrictEqual(await store.readCode(code, signal()), { grant: withUpstream, usedBy: undefined });
    assert.deepStrictEqual(await store.redeemCode(code, 'family-a', signal()), {
      kind: 'redeemed',
      grant: withUpstream,
    });
    // The used code keeps no copy of the provider's token: it lives in the family now.
    assert.deepStrictEqual(await store.readCode(code, signal()), { grant: grant(at), usedBy: 'family-a' });
    assert.equal(await store.readCode(unique('none'), signal()), undefined);
  },
};

/** Refresh families: rotated only over the current token by its client, never once revoked or expired. */
const familyChecks: Record<string, (store: BridgeStore) => Promise<void>> = {
  'commits a rotation only over the current token, remembering the one it replaced and when': async (
    store,
  ) => {
    const at = now();
    const id = unique('family');
    assert.equal(await store.createFamily({ ...family(id, at, 'h1'), upstream: 'u1' }, signal()), true);
    const rotation = {
      familyId: id,
      presentedHash: 'h1',
      nextHash: 'h2',
      clientHash: 'client-hash',
      nowSeconds: at,
    };
    assert.equal(await store.commitRotation({ ...rotation, upstream: 'u2' }, signal()), true);
    assert.deepStrictEqual(await store.readFamily(id, signal()), {
      kind: 'family',
      family: { ...family(id, at, 'h2'), previousHash: 'h1', rotatedAt: at, upstream: 'u2' },
    });
    // The same rotation again (a concurrent refresh that lost) does not commit; nor does another client's.
    assert.equal(await store.commitRotation(rotation, signal()), false);
    const stolen = { ...rotation, presentedHash: 'h2', clientHash: 'thief' };
    assert.equal(await store.commitRotation(stolen, signal()), false);
    // Without a new provider token the family keeps the one it had.
    const next = { ...rotation, presentedHash: 'h2', nextHash: 'h3' };
    assert.equal(await store.commitRotation(next, signal()), true);
    const read = await store.readFamily(id, signal());
    assert.equal(read.kind, 'family');
    assertHas(
      read.kind === 'family' ? read.family : undefined,
      { tokenHash: 'h3', previousHash: 'h2', upstream: 'u2' },
      'the family',
    );
  },
  'lets exactly one of many concurrent rotations of one token commit': async (store) => {
    const id = unique('family');
    await store.createFamily(family(id, now(), 'h1'), signal());
    const rotation = { familyId: id, presentedHash: 'h1', nextHash: 'h2', clientHash: 'client-hash' };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.commitRotation({ ...rotation, nowSeconds: now() }, signal())),
    );
    assert.equal(results.filter(Boolean).length, 1);
  },
  'commits nothing to a revoked or expired family, and forgets the provider token of a revoked one': async (
    store,
  ) => {
    const revoked = unique('family');
    await store.createFamily({ ...family(revoked, now(), 'h1'), upstream: 'u1' }, signal());
    await store.revokeFamily(revoked, now() + 3600, signal());
    assert.deepStrictEqual(await store.readFamily(revoked, signal()), { kind: 'revoked' });
    const rotation = { presentedHash: 'h1', nextHash: 'h2', clientHash: 'client-hash', nowSeconds: now() };
    assert.equal(await store.commitRotation({ ...rotation, familyId: revoked }, signal()), false);
    const expired = unique('family');
    await store.createFamily({ ...family(expired, now(), 'h1'), expiresAt: now() + 5 }, signal());
    const late = { ...rotation, familyId: expired, nowSeconds: now() + 10 };
    assert.equal(await store.commitRotation(late, signal()), false);
    assert.deepStrictEqual(await store.readFamily(unique('none'), signal()), { kind: 'unknown' });
  },
  'keeps a revocation that arrives before the family exists, so the family can never be created': async (
    store,
  ) => {
    const id = unique('family');
    await store.revokeFamily(id, now() + 3600, signal());
    assert.equal(await store.createFamily(family(id, now()), signal()), false);
  },
  'records a sign-out per subject, keeping the latest': async (store) => {
    const subject = unique('user');
    assert.equal(await store.signedOutAt(subject, signal()), undefined);
    await store.signOut(subject, 1_000, now() + 3600, signal());
    await store.signOut(subject, 900, now() + 3600, signal());
    assert.equal(await store.signedOutAt(subject, signal()), 1_000);
    await store.signOut(subject, 2_000, now() + 3600, signal());
    assert.equal(await store.signedOutAt(subject, signal()), 2_000);
    assert.equal(await store.signedOutAt(unique('user'), signal()), undefined);
  },
};

/**
 * The `BridgeStore` contract (`@mcp-lambda/bridge`): codes redeemed once, refresh families rotated only over their
 * current token and never after revocation, sign-outs kept per subject, whatever the concurrency.
 */
export function bridgeStoreChecks(make: MakeStore<BridgeStore>): ContractCheck[] {
  return checks(make, { ...codeChecks, ...familyChecks });
}
