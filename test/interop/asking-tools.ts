import { defineTool, type FormSchema, type ToolDefinition } from '@mcp-lambda/server';
import { askingTools } from '../conformance/fixtures/asking.ts';

/**
 * The tools the asking interop tests call: the conformance fixtures that ask (ctx.elicit, ctx.sample), a form with
 * every field shape Claude Code renders (echoing what came back), and the client's roots.
 */

/** A form with each field shape a host renders: string, number, integer, boolean, enum, titled enum, multi-select. */
export const EVERY_SHAPE: FormSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, default: 'Ada' },
    email: { type: 'string', format: 'email' },
    budget: { type: 'number', minimum: 0, default: 9.5 },
    seats: { type: 'integer', minimum: 1, maximum: 10, default: 2 },
    newsletter: { type: 'boolean', default: false },
    plan: { type: 'string', enum: ['free', 'pro'], default: 'free' },
    region: {
      type: 'string',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'United States' },
      ],
    },
    features: { type: 'array', items: { type: 'string', enum: ['sso', 'audit', 'api'] }, default: ['api'] },
  },
  required: ['name', 'plan'],
};

export const askingFixtureTools: ToolDefinition[] = [
  ...askingTools,
  defineTool({
    name: 'every_shape',
    description: 'Asks for a form with every field shape and echoes the answer',
    timeoutMs: 30_000,
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({ message: 'Set up your account', requestedSchema: EVERY_SHAPE });
      return { content: [{ type: 'text', text: answer.action }], structuredContent: { ...answer } };
    },
  }),
  defineTool({
    name: 'list_roots',
    description: "Lists the client's roots",
    handler: async (_args, ctx) =>
      (await ctx.roots()).map((root) => `${root.name ?? ''} ${root.uri}`).join('\n'),
  }),
];
