import { describe, expect, it } from 'vitest';
import { defineTool, ToolError } from '@mcp-lambda/server';
import { createMcpServer } from '@mcp-lambda/server/lambda';
import { serverResources } from '../../src/resources.ts';
import { tools } from '../../src/tools/index.ts';
import { generateValidatorModules, schemaHash } from '@mcp-lambda/server/build';
import { send } from '@mcp-lambda/dev/testing';
import { STAND_IN_TOOL } from '../support/stand-in-tool.ts';

/**
 * A user adds a tool to the template: the checks the root tests make on the tool list (tools/list in definition
 * order, each example tool by name, a validator per schema from `npm run generate`) hold with the longer list too.
 * They run here on a copy of src/tools/index.ts's list with a stand-in tool added, named so that no tool a user
 * adds can collide with it (README's own `word_count` is added for real to an app `npm create` made, by the registry tier in CI); the
 * stack's per-tool checks run with it in test/infra/stack.test.ts.
 */

const wordCount = defineTool({
  name: STAND_IN_TOOL,
  title: 'Word count',
  description: 'Counts the words in a text.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to count' } },
    required: ['text'],
    additionalProperties: false,
  } as const,
  annotations: { readOnlyHint: true, idempotentHint: true },
  handler: async ({ text }) => {
    if (text.trim() === '')
      throw new ToolError('The text is empty: pass the text whose words should be counted.');
    return `${text.trim().split(/\s+/).length} words`;
  },
});

const withAdded = [...tools, wordCount];
const server = createMcpServer({
  info: { name: 'template-with-a-tool', version: '0.1.0' },
  tools: withAdded,
  resources: [serverResources],
});
const call = async (name: string, args: Record<string, unknown>) =>
  (
    await send(server, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    })
  ).json.result;

describe('a tool a user adds to the template', () => {
  it('is listed after the example tools, in the order of the list', async () => {
    const res = await send(server, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(res.json.result.tools.map((t: { name: string }) => t.name)).toEqual(withAdded.map((t) => t.name));
  });

  it('answers its calls, and refuses arguments outside its schema naming the field', async () => {
    expect((await call(STAND_IN_TOOL, { text: 'one two  three' })).content).toEqual([
      { type: 'text', text: '3 words' },
    ]);
    const refused = await call(STAND_IN_TOOL, {});
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/text/);
  });

  it('leaves the example tools answering by name', async () => {
    expect((await call('ping', {})).content).toEqual([{ type: 'text', text: 'pong' }]);
    expect((await call('safe_divide', { a: 6, b: 3 })).content).toEqual([{ type: 'text', text: '2' }]);
  });

  it('gets its validator from npm run generate, and the example tools keep theirs', () => {
    const table = (list: typeof tools) => generateValidatorModules(list).table;
    const added = table(withAdded);
    expect(added).toContain(`"${STAND_IN_TOOL}#input"`);
    expect(added).toContain(schemaHash(wordCount.inputSchema!));
    for (const tool of tools) expect(added).toContain(`"${tool.name}#input"`);
    expect(table(tools)).not.toContain(STAND_IN_TOOL);
  });
});
