import { defineTool, type ToolDefinition } from '@mcp-lambda/server';

/**
 * Tools that show a client's cancellation reaching a long call on another instance, served by the asking instances
 * (test/support/asking-instance.ts): one works until its signal fires, asking nothing; the other says, from the same
 * instance, what became of it.
 */

/** What each tagged call of `works_until_cancelled` saw, in this instance. */
const seen = new Map<string, { state: 'running' | 'finished' | 'cancelled'; reason?: string }>();

export const cancelFixtureTools: ToolDefinition[] = [
  defineTool({
    name: 'works_until_cancelled',
    description:
      'Works until its signal fires (25 s at most), asking nothing; with `cut`, cuts its stream first',
    inputSchema: {
      type: 'object',
      properties: { tag: { type: 'string' }, cut: { type: 'boolean' } },
      required: ['tag'],
    },
    timeoutMs: 30_000,
    handler: async ({ tag, cut }, ctx) => {
      seen.set(tag, { state: 'running' });
      if (cut) ctx.closeStream();
      else ctx.notify('info', 'working');
      await new Promise((resolve) => {
        ctx.signal.addEventListener('abort', resolve, { once: true });
        setTimeout(resolve, 25_000);
      });
      const reason = (ctx.signal.reason as Error | undefined)?.message;
      seen.set(
        tag,
        ctx.signal.aborted ? { state: 'cancelled', ...(reason ? { reason } : {}) } : { state: 'finished' },
      );
      return 'done';
    },
  }),
  defineTool({
    name: 'what_became_of',
    description: 'What the call of `works_until_cancelled` with this tag saw so far, as JSON',
    inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    handler: async ({ tag }) => JSON.stringify(seen.get(tag) ?? { state: 'unknown' }),
  }),
];
