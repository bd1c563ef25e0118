import type { McpFunctionOptions } from '@mcp-lambda/server/lambda';
import { serverResources } from './resources.ts';
import { tools } from './tools/index.ts';
import { approvalView } from './views.ts';
import { validators } from './generated/validators.generated.ts';

/** This server's own parts; the rest (storage, tasks, authorization, …) is read from the environment. */
export const app: McpFunctionOptions = {
  title: 'MCP on AWS Lambda',
  instructions:
    'Large tool outputs arrive as a notice naming their mcp-output:// uri, and its resource_link: page through ' +
    'or search them with the read_output tool (or resources/read) when you need the content.',
  tools,
  validators,
  resources: [serverResources],
  // delete_output, gated: the person approves in the approval view (or by elicitation) before anything is deleted.
  deleteOutputTool: { view: approvalView },
};
