import assert from 'node:assert/strict';

/**
 * Contract checks: what every implementation of one of the packages' storage interfaces must do, as named async
 * checks that throw on failure. They depend on no test runner; run them in yours, one test each:
 *
 *   for (const check of taskStoreChecks(() => myStore())) it(check.name, check.run);
 *
 * Each check makes its own store with `make` and uses keys of its own, so checks may share one table and run in
 * any order.
 */
export interface ContractCheck {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/** Makes a store for one check (a new object; it may share a table with the others). */
export type MakeStore<Store> = () => Store | Promise<Store>;

/** Fails unless every key of `expected` holds a value deeply equal in `actual` (other keys may be present). */
export function assertHas(actual: unknown, expected: Record<string, unknown>, what: string): void {
  assert.ok(
    typeof actual === 'object' && actual !== null,
    `${what}: expected an object, got ${String(actual)}`,
  );
  for (const [key, value] of Object.entries(expected))
    assert.deepStrictEqual((actual as Record<string, unknown>)[key], value, `${what}: ${key}`);
}

/** Fails unless `work` rejects. */
export async function assertRejects(work: () => Promise<unknown>, what: string): Promise<void> {
  await assert.rejects(work, what);
}

/** The checks of one contract, each bound to a fresh store from `make`. */
export function checks<Store>(
  make: MakeStore<Store>,
  cases: Record<string, (store: Store) => Promise<void>>,
): ContractCheck[] {
  return Object.entries(cases).map(([name, run]) => ({ name, run: async () => run(await make()) }));
}
