import type { APPROVAL_META_KEY as VIEW_META_KEY } from '../contracts/proposal.ts';

// The proposal's contract lives in contracts/, without imports, so a view can import it too.
export type { Proposal } from '../contracts/proposal.ts';

/**
 * The `_meta` key of a proposal, declared again so the MCP function's start-up code gains no module; its type is
 * the view's key (`proposal.ts`), so the two cannot differ.
 */
export const APPROVAL_META_KEY: typeof VIEW_META_KEY = 'mcp-lambda-template/approval';

/** The app-only tool that runs a gated tool once approved: `<tool>_approved`. */
export const approvedToolName = (tool: string): string => `${tool}_approved`;

/** The key of the question in an elicitation round (2026-07-28 `inputRequests`). */
export const APPROVAL_INPUT_KEY = 'approval';

/** Default time to decide. */
export const DEFAULT_APPROVAL_TTL_MS = 10 * 60_000;

/** How a server checks approvals (`McpServerOptions.approvals`). */
export interface ApprovalOptions {
  /**
   * Where used approvals are recorded (single use): every instance must share it. Default: `dynamodb` when given,
   * else this process's memory (`memoryApprovalLedger`), which suits one process only.
   */
  ledger?: import('./ledger.ts').ApprovalLedger;
  /** Records used approvals in this DynamoDB table (the task table fits); its code loads on the first approval. */
  dynamodb?: import('./dynamodb-ledger.ts').DynamoApprovalLedgerOptions;
  /** Key material (at least 16 bytes) signing proofs, the same on every instance. Default: see `createMcpServer`. */
  secret?: string | Uint8Array;
}
