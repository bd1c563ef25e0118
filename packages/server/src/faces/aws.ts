/**
 * `@mcp-lambda/server/aws`: the AWS implementations of the backend interfaces (`./backend`): storage on S3, the
 * companion invoked through Lambda, the call state, task store and approval ledger on DynamoDB, tasks launched on
 * Lambda, session keys in Secrets Manager; their options and the tables' attribute names (the CDK constructs declare
 * the same). Audience: the Lambda functions' wiring and the constructs. Each loads its AWS SDK client on first use.
 * Each group is marked stable or experimental.
 */

// ## Storage on S3 (stable)
export { s3Storage, type S3StorageOptions } from '../storage/s3.ts';
export { s3RangeReader } from '../storage/s3-ranges.ts';

// ## The companion, invoked through Lambda (stable)
export { lambdaInvoker, type LambdaInvokerOptions } from '../outputs/companion/lambda-invoker.ts';

// ## Asking the client mid-call: the call state on DynamoDB, session keys in Secrets Manager (experimental)
export { dynamoCallState } from '../asking/stores.ts';
export { CallStateTableAttributes, type DynamoCallStateOptions } from '../call-state/table.ts';
// Renamed (deprecated): the previous release's names.
export { dynamoRendezvous } from '../asking/stores.ts';
export { RendezvousTableAttributes, type DynamoRendezvousOptions } from '../call-state/table.ts';
export { secretsManagerKeys } from '../asking/lazy.ts';

// ## Tasks: the store on DynamoDB, the launcher on Lambda (experimental)
export {
  dynamoTaskStore,
  TaskTableAttributes,
  type DynamoTaskStoreOptions,
} from '../tasks/dynamodb-store.ts';
export { lambdaTaskLauncher, taskJobPayload, type LambdaTaskLauncherOptions } from '../tasks/launchers.ts';

// ## Approval: the ledger of used approvals on DynamoDB (experimental)
// Its options only: the ledger is made on the first approval (`ApprovalOptions.dynamodb`), never at start-up.
export type { DynamoApprovalLedgerOptions } from '../approval/dynamodb-ledger.ts';
