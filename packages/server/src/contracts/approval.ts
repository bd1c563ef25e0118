import type { ToolContext } from './tool-context.ts';
import type { ViewDefinition } from './view.ts';

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
