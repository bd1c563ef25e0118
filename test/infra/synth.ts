import { CDK_JSON_CONTEXT } from '@mcp-lambda/cdk/testing';

import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { READ_OUTPUT_TOOL } from '@mcp-lambda/server/lambda';
import { tools } from '../../src/tools/index.ts';
import { McpStack, type McpStackProps } from '../../infra/stack.ts';

/** The template's tool names, as infra/app.ts hands them to the stack. */
export const TEMPLATE_TOOL_NAMES: readonly string[] = tools.map((tool) => tool.name);

/**
 * The tools a deployed MCP function serves given these names: each of them and read_output. Tests count per-tool
 * resources with it, never with a number, so a tool added to the template keeps them green.
 */
export const servedToolNames = (names: readonly string[] = TEMPLATE_TOOL_NAMES): string[] => [
  ...names,
  READ_OUTPUT_TOOL,
];

/** Options of {@link synthStack}. */
export interface SynthOptions {
  /** Bundle the functions for real with esbuild. Default false (assertion tests only read the template). */
  bundle?: boolean;
  /** Cloud assembly directory. Default: a temporary directory chosen by the CDK. */
  outdir?: string;
  /** Extra context, e.g. `aws:cdk:enable-asset-metadata`. */
  context?: Record<string, unknown>;
}

/**
 * Builds the deployable stack the way `cdk synth` does (cdk.json flags), without the built-in CloudFormation
 * validation, which the CI synth keeps on.
 */
export function synthStack(props: McpStackProps = {}, options: SynthOptions = {}) {
  const app = new App({
    context: {
      ...CDK_JSON_CONTEXT,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
    builtinCloudFormationValidation: false,
    ...(options.outdir ? { outdir: options.outdir } : {}),
  });
  // As infra/app.ts does: the stack is told the names of the tools it deploys.
  const endpoint = { toolNames: tools.map((tool) => tool.name), ...props.endpoint };
  const stack = new McpStack(app, 'McpServer', { ...props, endpoint });
  return { app, stack, template: Template.fromStack(stack) };
}
