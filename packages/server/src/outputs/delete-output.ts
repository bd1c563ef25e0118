/** What delete_output does, loaded on its first call (`delete-tool.ts` holds only its listing). */
import { clientText } from '../protocol/client-text.ts';
import type { ToolContext } from '../contracts/tool-context.ts';
import { ToolError } from '../contracts/tool-error.ts';
import type { ResultOffloader } from './offloader.ts';
import { count, type OutputPager } from './paging/page.ts';

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

/** The proposal's words: what will be deleted. */
export async function proposeDeletion(pager: OutputPager, uri: string, ctx: ToolContext): Promise<string> {
  return `Delete ${await describeOutput(pager, uri, ctx)} now; its links stop working. This cannot be undone.`;
}

/** Deletes the output once approved: looked up again first (it may have expired, or been deleted, since). */
export async function deleteOutput(
  offloader: ResultOffloader,
  pager: OutputPager,
  uri: string,
  ctx: ToolContext,
): Promise<string> {
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
        'this tool again with the same uri to finish.',
    );
  }
  if (!removed) throw new ToolError(notFound(uri));
  ctx.log.info('stored output deleted', { uri });
  return `Deleted ${what}; its links no longer work.`;
}
