import { defineTool, type ToolDefinition } from '@mcp-lambda/server';

/**
 * Tools that cut their own stream mid-call (SEP-1699), served by the asking instances
 * (test/support/asking-instance.ts): the client resumes with `GET` and `Last-Event-ID`, on another instance.
 */
export const resumeFixtureTools: ToolDefinition[] = [
  defineTool({
    name: 'cut_midway',
    description: 'Sends a log message, cuts its stream, sends another, then answers',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      ctx.notify('info', 'before the cut');
      const cut = ctx.closeStream();
      await new Promise((resolve) => setTimeout(resolve, 300));
      ctx.notify('info', 'after the cut');
      return cut ? 'answered after the cut' : 'answered without a cut';
    },
  }),
  defineTool({
    name: 'cut_then_ask',
    description: 'Cuts its stream, then asks the person: the question travels on the resumed stream',
    timeoutMs: 20_000,
    handler: async (_args, ctx) => {
      ctx.closeStream();
      const answer = await ctx.elicit({
        message: 'Still there?',
        requestedSchema: { type: 'object', properties: { here: { type: 'boolean' } }, required: ['here'] },
      });
      return `${answer.action} ${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'cut_and_stamp',
    description:
      'Cuts its stream, waits 100 to 600 ms (at random, so no poll interval lines up with it), then answers with ' +
      'the epoch time (ms) at which it answered',
    handler: async (_args, ctx) => {
      ctx.closeStream();
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 500));
      return String(performance.timeOrigin + performance.now());
    },
  }),
];
