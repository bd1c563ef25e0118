import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoStore } from '../../src/dynamodb-store.ts';
import { createMemoryStore } from '../../src/memory-store.ts';
import type { BridgeStore } from '../../src/store.ts';
import { bridgeStoreChecks, startLocalDynamo, type LocalDynamo } from '@mcp-lambda/dev/testing';

/**
 * The bridge store's contract (the checks `@mcp-lambda/dev/testing` gives any store), run against both implementations: in memory (local, tests) and DynamoDB (deployed),
 * the latter against dynalite, a DynamoDB-compatible server, so its conditional writes really run.
 */

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

describe.each([
  { name: 'memory', make: (): BridgeStore => createMemoryStore() },
  {
    name: 'DynamoDB (dynalite)',
    make: (): BridgeStore =>
      createDynamoStore({ tableName: dynamo.tableName, endpoint: dynamo.endpoint, region: 'us-east-1' }),
  },
])('the $name store', ({ make }) => {
  for (const check of bridgeStoreChecks(make)) it(check.name, check.run);
});

describe('the contract checks', () => {
  it('catch a store that redeems a code twice', async () => {
    const real = createMemoryStore();
    const replayable: BridgeStore = {
      ...real,
      redeemCode: async (code, family, signal) => {
        const record = await real.readCode(code, signal);
        return record ? { kind: 'redeemed', grant: record.grant } : real.redeemCode(code, family, signal);
      },
    };
    const failed: string[] = [];
    for (const check of bridgeStoreChecks(() => replayable))
      await check.run().catch(() => failed.push(check.name));
    expect(failed).toEqual(
      expect.arrayContaining([
        'reports a second redemption as a replay naming the family of the first',
        'lets exactly one of many concurrent redemptions win',
      ]),
    );
  });
});
