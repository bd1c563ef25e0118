import type { ToolContext } from '../tools/context.ts';
import type { ViewDefinition } from '../views/define.ts';
import type { APPROVAL_META_KEY as VIEW_META_KEY } from './proposal.ts';

// The proposal's contract lives apart, without imports, so a view can import it too.
export type { Proposal } from './proposal.ts';

/**
 * Approval before a consequential action (docs/views.md "Approval"): a tool declaring `approval` does nothing when
 * called; it proposes. The person approves in the approval view (a click that sends a single-use proof bound to the
 * caller, the tool, the arguments and an expiry to an app-only tool), or answers an elicitation where the client can
 * be asked; only then does the handler run, at most once per approval.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool of any arguments: defineTool checks each against its schema
export interface ApprovalSpec<A = any> {
  /**
   * What will happen, in a sentence or two for the person (and the model): shown in the view and in the question.
   * Runs in the call before anything is proposed; throw `ToolError` to refuse at once (e.g. nothing to delete).
   */
  describe(args: A, ctx: ToolContext): string | Promise<string>;
  /** The view that shows the proposal with Approve and Reject. Without one, only elicitation can ask. */
  view?: ViewDefinition;
  /** How long the person has to decide, in ms. Default 10 minutes. */
  ttlMs?: number;
}

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
