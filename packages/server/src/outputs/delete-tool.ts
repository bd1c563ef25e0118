import { clientText } from '../protocol/client-text.ts';
import { defineTool, ToolError, type ToolContext, type ToolDefinition } from '../tools/define.ts';
import type { ViewDefinition } from '../views/define.ts';
import type { ResultOffloader } from './offloader.ts';
import { count, type OutputPager } from './paging/page.ts';

/**
 * `delete_output`: deletes one of the caller's stored outputs before it expires. It is destructive, so it is gated
 * with `approval`: a call proposes (naming the output, its type, size and expiry), and the output is deleted only
 * once the person approves. The server registers it when outputs are offloaded and their pages can be read
 * (`deleteOutputTool` in the server options).
 */

export const DELETE_OUTPUT_TOOL = 'delete_output';

export const DELETE_OUTPUT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    uri: {
      type: 'string',
      minLength: 1,
      maxLength: 512,
      description:
        "The mcp-output:// URI from the output's resource link (any part's URI deletes the whole output)",
    },
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

const notFound = (uri: string) =>
  `No stored output was found for uri ${JSON.stringify(clientText(uri))} (it may have expired or been deleted ` +
  'already, or belong to another caller), so there is nothing to delete.';

/** What is stored under a URI, in words, or a refusal the model can act on. */
async function describeOutput(pager: OutputPager, uri: string, ctx: ToolContext): Promise<string> {
  const outcome = await pager.readPage(
    uri,
    { mode: 'bytes', offset: 0, length: 1, budget: 1024 },
    {
      era: ctx.era,
      requestId: ctx.requestId,
      log: ctx.log,
      signal: ctx.signal,
      ...(ctx.principal !== undefined ? { principal: ctx.principal.key } : {}),
    },
  );
  const quoted = JSON.stringify(clientText(uri));
  switch (outcome.status) {
    case 'page': {
      const { mimeType, size, expiresAt } = outcome.page;
      return `the stored output ${quoted} (${mimeType}, ${count(size)} bytes, kept until ${expiresAt})`;
    }
    case 'refused':
      // A text page of a binary output is refused: the output is there.
      return `the stored output ${quoted} (binary)`;
    case 'not_found':
      throw new ToolError(notFound(uri));
    case 'unavailable':
      throw new ToolError(
        `The stored output could not be looked up right now (request id ${ctx.requestId}); try again shortly.`,
      );
  }
}

/** The built-in tool, bound to the offloader and a reader. */
export function deleteOutputTool(options: DeleteOutputToolOptions): ToolDefinition {
  const { offloader, pager } = options;
  return defineTool({
    name: DELETE_OUTPUT_TOOL,
    title: 'Delete a stored output',
    description:
      'Deletes one of your stored outputs (an mcp-output:// URI from a resource link) now, before it expires. ' +
      'The person approves it first; nothing is deleted until they do.',
    inputSchema: DELETE_OUTPUT_INPUT_SCHEMA,
    annotations: { destructiveHint: true, idempotentHint: true, readOnlyHint: false, openWorldHint: false },
    approval: {
      ...(options.view ? { view: options.view } : {}),
      describe: async ({ uri }, ctx) =>
        `Delete ${await describeOutput(pager, uri, ctx)} now; its links stop working. This cannot be undone.`,
    },
    handler: async ({ uri }, ctx) => {
      // Looked up again: it may have expired, or been deleted, since the proposal.
      const what = await describeOutput(pager, uri, ctx);
      let removed: boolean;
      try {
        removed = await offloader.remove(uri, {
          signal: ctx.signal,
          ...(ctx.principal !== undefined ? { principal: ctx.principal.key } : {}),
        });
      } catch (error) {
        ctx.log.error('stored output delete failed', {
          uri,
          error: error instanceof Error ? error.message : String(error),
        });
        throw new ToolError(
          `Storage failed while deleting ${what} (request id ${ctx.requestId}): it may be partly deleted. Call ` +
            `${DELETE_OUTPUT_TOOL} again to finish.`,
        );
      }
      if (!removed) throw new ToolError(notFound(uri));
      ctx.log.info('stored output deleted', { uri });
      return `Deleted ${what}; its links no longer work.`;
    },
  });
}
