/**
 * The contract between a gated tool's result and the view that asks for approval: no imports, so a view (browser
 * code, `@mcp-lambda/server/view`) reads the same declaration the server writes.
 */

/** The `_meta` key of a proposal in a gated tool's result: for the view only (hosts keep `_meta` from the model). */
export const APPROVAL_META_KEY = 'mcp-lambda-template/approval';

/** What a proposal tells the view (under {@link APPROVAL_META_KEY} in the result's `_meta`). */
export interface Proposal {
  tool: string;
  /** What will happen (the spec's `describe`). */
  description: string;
  /** The arguments the proof is bound to: the view sends them back unchanged. */
  arguments: Record<string, unknown>;
  /** When the proof expires (ISO 8601). */
  expiresAt: string;
  /** The same, in ms from the proposal: a view counts down from it by its own clock, which may be off. */
  expiresInMs: number;
  /** The app-only tool to call with the proof. */
  approveWith: string;
  proof: string;
}
