import { Ranges } from '../limits.ts';
import { defineTool, type ToolDefinition } from '../tools/define.ts';
import type { ViewDefinition } from '../contracts/view.ts';
import type { ResultOffloader } from './offloader.ts';
import type { OutputPager } from './paging/page.ts';

/**
 * `delete_output`: deletes one of the caller's stored outputs before it expires. It is destructive, so it is gated
 * with `approval`: a call proposes (naming the output, its type, size and expiry), and the output is deleted only
 * once the person approves. The server registers it when outputs are offloaded and their pages can be read
 * (`deleteOutputTool` in the server options).
 */

export const DELETE_OUTPUT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: { type: 'string', minLength: 1, maxLength: 512 },
  },
  required: ['uri'],
  additionalProperties: false,
} as const;

/** What the tool needs: the offloader (which may delete) and a reader (to tell what is there). */
export interface DeleteOutputToolOptions {
  offloader: ResultOffloader;
  pager: OutputPager;
  /** The approval view; without one only clients that can be asked (elicitation) can approve. */
  view?: ViewDefinition;
}

/** The built-in tool's name, as listed and called (and as the build's validators know it). */
export const DELETE_OUTPUT_TOOL = 'delete_output';

/** What the tool does, loaded on its first call. */
const run = () => import('./delete-output.ts');

/** The built-in tool, bound to the offloader and a reader. */
export function deleteOutputTool(options: DeleteOutputToolOptions): ToolDefinition {
  const { offloader, pager } = options;
  return defineTool({
    name: DELETE_OUTPUT_TOOL,
    title: 'Delete a stored output',
    description:
      'Deletes a stored output before it expires, once the person approves; nothing is deleted until then.',
    inputSchema: DELETE_OUTPUT_INPUT_SCHEMA,
    annotations: { destructiveHint: true, idempotentHint: true, readOnlyHint: false, openWorldHint: false },
    // A person needs minutes, not the default budget's seconds: a question asked mid-call (the streaming API) waits
    // as long as the invocation may run (the function's time limit, 15 minutes by default there). The budget is
    // always capped by the invocation's remaining time, so on the HTTP API nothing waits past API Gateway.
    timeoutMs: Ranges.toolTimeoutMs.max,
    approval: {
      ...(options.view ? { view: options.view } : {}),
      describe: async ({ uri }, ctx) => (await run()).proposeDeletion(pager, uri, ctx),
    },
    handler: async ({ uri }, ctx) => (await run()).deleteOutput(offloader, pager, uri, ctx),
  });
}
