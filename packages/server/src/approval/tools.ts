import type { JsonSchema } from '../protocol/types.ts';
import type { ToolDefinition } from '../tools/define.ts';
import { approvedToolName, type ApprovalOptions } from './define.ts';

/**
 * The tools a server lists for its gated tools: each tool declaring `approval` proposes instead of acting, and, when
 * it has an approval view, an app-only `<tool>_approved` runs it once the person approved there. Only the listing is
 * built here; the checking code (`gate.ts`) loads on the first gated call.
 */

/** The executing tool's arguments: the proposal's arguments unchanged, its proof, and the person's decision. */
export const APPROVED_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    arguments: { type: 'object', description: 'The arguments of the proposal, unchanged' },
    proof: { type: 'string', maxLength: 200, description: 'The proof the approval view received' },
    decision: { enum: ['approve', 'reject'], description: "The person's decision" },
  },
  required: ['arguments', 'proof', 'decision'],
  additionalProperties: false,
} as const satisfies JsonSchema;

const gate = () => import('./gate.ts');

/** Refuses an `approval` declaration that could only fail later. */
function checkApproval(tool: ToolDefinition): void {
  const { name, approval } = tool;
  if (typeof approval?.describe !== 'function')
    throw new Error(`Tool "${name}" declares approval without a describe function`);
  if (tool.task)
    throw new Error(`Tool "${name}" declares approval and task: an approval is given in the request`);
  if (tool.outputSchema)
    throw new Error(`Tool "${name}" declares approval and an outputSchema: its first answer is a proposal`);
  if (tool.view && approval.view && tool.view !== approval.view)
    throw new Error(
      `Tool "${name}" declares a view and an approval view: the proposal is shown in the approval view`,
    );
}

/** Expands every gated tool into its proposing form and, with a view, its app-only executing tool. */
export function withApprovals(
  tools: readonly ToolDefinition[],
  options: ApprovalOptions = {},
): ToolDefinition[] {
  return tools.flatMap((tool) => {
    if (tool.approval === undefined) return [tool];
    checkApproval(tool);
    const { approval } = tool;
    const proposing: ToolDefinition = {
      ...tool,
      ...(approval.view ? { view: approval.view } : {}),
      handler: async (args, ctx) => (await gate()).propose(tool, args, ctx, options),
    };
    if (!approval.view) return [proposing];
    const executing: ToolDefinition = {
      name: approvedToolName(tool.name),
      title: `${tool.title ?? tool.name} (once approved)`,
      description:
        `Runs ${tool.name} with the proof its approval view received when the person approved it, or records a ` +
        `rejection. Only that view calls it; without the proof nothing is done.`,
      inputSchema: APPROVED_INPUT_SCHEMA,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      view: approval.view,
      visibility: ['app'],
      ...(tool.scopes ? { scopes: tool.scopes } : {}),
      ...(tool.timeoutMs !== undefined ? { timeoutMs: tool.timeoutMs } : {}),
      ...(tool.logArguments !== undefined ? { logArguments: tool.logArguments } : {}),
      handler: async (input, ctx) => (await gate()).execute(tool, input, ctx, options),
    };
    return [proposing, executing];
  });
}
