/**
 * What a model is handed of a tool result through each agent framework's MCP adapter, reproduced from each adapter's
 * own conversion (read in their sources, November 2026), so the bytes a model pays for can be measured without the
 * frameworks installed. Each function returns the text the framework passes on as the tool message.
 *
 * - AI SDK (`@ai-sdk/mcp` 2.x, default schemas): `mcpToModelOutput` makes each text block a text part and any other
 *   block its JSON; structuredContent is not shown.
 * - LangChain (`@langchain/mcp-adapters` 1.1.x): a result of exactly one text block becomes that block with
 *   `structuredContent` attached, and the ToolMessage carries it as JSON; several blocks go on as their JSON (a
 *   resource link as a file block with its url), structuredContent only into the artifact.
 * - OpenAI Agents (`@openai/agents-core`, default): text blocks become text items of the tool's output; a result
 *   with any other block goes on as the JSON of its content.
 * - Mastra (`@mastra/mcp`): the text blocks joined with line breaks; other blocks are not shown.
 */

/** The parts of a tool result the adapters read. */
export interface ToolResultView {
  content: { type: string; text?: string; [key: string]: unknown }[];
  structuredContent?: unknown;
}

const isText = (block: ToolResultView['content'][number]) => block.type === 'text';
const texts = (result: ToolResultView) => result.content.filter(isText).map((b) => b.text ?? '');

/** LangChain's block for one MCP block (text and resource links; others are not in these results). */
const langChainBlock = (block: ToolResultView['content'][number]) =>
  block.type === 'resource_link'
    ? { type: 'file', source_type: 'url', url: block.uri, mime_type: block.mimeType }
    : { type: 'text', text: block.text };

/** The frameworks measured, by the name the bench prints. */
export const FRAMEWORKS = {
  'AI SDK': (result: ToolResultView) =>
    result.content.map((b) => (isText(b) ? (b.text ?? '') : JSON.stringify(b))).join(''),
  LangChain: (result: ToolResultView) => {
    const [only] = result.content;
    if (result.content.length === 1 && only && isText(only)) {
      if (result.structuredContent === undefined) return only.text ?? '';
      return JSON.stringify([{ ...langChainBlock(only), structuredContent: result.structuredContent }]);
    }
    return JSON.stringify(result.content.map(langChainBlock));
  },
  'OpenAI Agents': (result: ToolResultView) =>
    result.content.every(isText) ? texts(result).join('') : JSON.stringify(result.content),
  Mastra: (result: ToolResultView) => texts(result).join('\n'),
} as const;

export type Framework = keyof typeof FRAMEWORKS;

/** Bytes (UTF-8) of what each framework hands its model for one result. */
export function modelViews(result: ToolResultView): Record<Framework, number> {
  return Object.fromEntries(
    Object.entries(FRAMEWORKS).map(([name, view]) => [name, Buffer.byteLength(view(result), 'utf8')]),
  ) as Record<Framework, number>;
}
