import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ApprovalLedger } from '@mcp-lambda/server/backend';
import { checks, type ContractCheck, type MakeStore } from './check.ts';

const approvalId = () => randomBytes(16).toString('base64url');

/**
 * The `ApprovalLedger` contract (`@mcp-lambda/server/backend`): an approval is consumed once, whatever the
 * concurrency; other approvals are unaffected.
 */
export function approvalLedgerChecks(make: MakeStore<ApprovalLedger>): ContractCheck[] {
  return checks(make, {
    'consumes an approval once: fresh the first time, used every time after': async (ledger) => {
      const id = approvalId();
      const expiresAt = Date.now() + 60_000;
      assert.equal(await ledger.consume(id, expiresAt), true);
      assert.equal(await ledger.consume(id, expiresAt), false);
      assert.equal(await ledger.consume(id, expiresAt + 60_000), false);
    },
    'lets exactly one of many concurrent uses of one approval through': async (ledger) => {
      const id = approvalId();
      const expiresAt = Date.now() + 60_000;
      const fresh = await Promise.all(Array.from({ length: 8 }, () => ledger.consume(id, expiresAt)));
      assert.equal(fresh.filter(Boolean).length, 1);
    },
    'keeps approvals apart: using one leaves the others fresh': async (ledger) => {
      const expiresAt = Date.now() + 60_000;
      const [a, b] = [approvalId(), approvalId()];
      assert.equal(await ledger.consume(a, expiresAt), true);
      assert.equal(await ledger.consume(b, expiresAt), true);
    },
    'still knows an approval used in its last moment, just after it expired': async (ledger) => {
      const id = approvalId();
      const expiresAt = Date.now() + 50;
      assert.equal(await ledger.consume(id, expiresAt), true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await ledger.consume(id, expiresAt), false);
    },
  });
}
