import type { JsonSchema } from '../protocol/types.ts';
import type { ToolDefinition } from '../tools/define.ts';
import { approvedToolName } from './define.ts';
import type { GateOptions } from './gate.ts';

/**
 * The tools a server lists for its gated tools: each tool declaring `approval` proposes instead of acting, and, when
 * it has an approval view, an app-only `<tool>_approved` runs it once the person approved there. Only the listing is
 * built here; the checking code (`gate.ts`) loads on the first gated call.
 */

/** The executing tool's arguments: the proposal's arguments unchanged, its proof, and the person's decision. */
const APPROVED_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    arguments: { type: 'object' },
    proof: { type: 'string', maxLength: 200 },
    decision: { enum: ['approve', 'reject'] },
  },
  required: ['arguments', 'proof', 'decision'],
  additionalProperties: false,
} as const satisfies JsonSchema;

const gate = () => import('./gate.ts');

/** Refuses an `approval` declaration that could only fail later. */
function checkApproval(tool: ToolDefinition): void {
  const { approval } = tool;
  const problem =
    typeof approval?.describe !== 'function'
      ? 'no describe function'
      : tool.task || tool.outputSchema
        ? 'task or outputSchema too (its first answer is a proposal, in the request)'
        : tool.view && approval.view && tool.view !== approval.view
          ? 'another view than the approval view'
          : approval.ttlMs !== undefined && !(Number.isFinite(approval.ttlMs) && approval.ttlMs > 0)
            ? 'a ttlMs that is not a positive number of milliseconds'
            : undefined;
  if (problem) throw new Error(`Tool "${tool.name}" declares approval with ${problem}`);
}

/** Expands every gated tool into its proposing form and, with a view, its app-only executing tool. */
export function withApprovals(tools: readonly ToolDefinition[], options: GateOptions = {}): ToolDefinition[] {
  return tools.flatMap((tool) => {
    if (tool.approval === undefined) return [tool];
    checkApproval(tool);
    const { approval } = tool;
    const proposing: ToolDefinition = {
      ...tool,
      view: approval.view ?? tool.view,
      handler: async (args, ctx) => (await gate()).propose(tool, args, ctx, options),
    };
    if (!approval.view) return [proposing];
    // It acts as the gated tool does (the same hints, scopes and time budget), for views only. Its arguments
    // carry the proof, so they are never logged; the gate logs what ran.
    const executing: ToolDefinition = {
      ...tool,
      logArguments: false,
      name: approvedToolName(tool.name),
      description: `Runs ${tool.name} once approved in its view.`,
      inputSchema: APPROVED_INPUT_SCHEMA,
      view: approval.view,
      visibility: ['app'],
      handler: async (input, ctx) => (await gate()).execute(tool, input, ctx, options),
    };
    return [proposing, executing];
  });
}
