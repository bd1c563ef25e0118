import { afterAll, beforeAll, describe, it } from 'vitest';
import { dynamoApprovalLedger } from '../../src/approval/dynamodb-ledger.ts';
import { memoryApprovalLedger } from '../../src/approval/ledger.ts';
import {
  approvalLedgerChecks,
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  type LocalDynamo,
} from '@mcp-lambda/dev/testing';

// The ApprovalLedger contract (the checks `@mcp-lambda/dev/testing` gives any ledger), held against both
// implementations: in memory, and in DynamoDB through a local DynamoDB that runs its conditional writes.

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo('approval-ledger-under-test');
});
afterAll(() => dynamo?.close());

describe.each([
  ['the in-memory ledger', () => memoryApprovalLedger()],
  [
    'the DynamoDB ledger',
    () =>
      dynamoApprovalLedger({
        table: dynamo.tableName,
        endpoint: dynamo.endpoint,
        credentials: LOCAL_DYNAMO_CREDENTIALS,
      }),
  ],
])('%s', (_name, make) => {
  for (const check of approvalLedgerChecks(make)) it(check.name, check.run);
});
