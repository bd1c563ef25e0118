/**
 * What a model is handed of a tool result through each agent framework's MCP adapter, reproduced from each adapter's
 * own conversion (read in their sources, November 2026), so the bytes a model pays for can be measured without the
 * frameworks installed. Each function returns the text the framework passes on as the tool message.
 *
 * - AI SDK (`@ai-sdk/mcp` 2.x, default schemas): `mcpToModelOutput` maps each text block to a text part;
 *   structuredContent is not shown.
 * - LangChain (`@langchain/mcp-adapters` 1.1.x): a result of exactly one text block becomes that block with
 *   `structuredContent` attached, and the ToolMessage carries it as JSON; several blocks go on as blocks (their JSON),
 *   structuredContent only into the artifact.
 * - OpenAI Agents (`@openai/agents-core`, default): the text blocks become text items of the tool's output.
 * - Mastra (`@mastra/mcp`): the text blocks joined with line breaks.
 */

/** The parts of a tool result the adapters read. */
export interface ToolResultView {
  content: { type: string; text?: string; [key: string]: unknown }[];
  structuredContent?: unknown;
}

const texts = (result: ToolResultView) =>
  result.content.flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : []));

/** The frameworks measured, by the name the bench prints. */
export const FRAMEWORKS = {
  'AI SDK': (result: ToolResultView) => texts(result).join(''),
  LangChain: (result: ToolResultView) => {
    const [only] = result.content;
    if (result.content.length === 1 && only?.type === 'text') {
      if (result.structuredContent === undefined) return only.text ?? '';
      return JSON.stringify([{ type: 'text', text: only.text, structuredContent: result.structuredContent }]);
    }
    return JSON.stringify(result.content);
  },
  'OpenAI Agents': (result: ToolResultView) => texts(result).join(''),
  Mastra: (result: ToolResultView) => texts(result).join('\n'),
} as const;

export type Framework = keyof typeof FRAMEWORKS;

/** Bytes (UTF-8) of what each framework hands its model for one result. */
export function modelViews(result: ToolResultView): Record<Framework, number> {
  return Object.fromEntries(
    Object.entries(FRAMEWORKS).map(([name, view]) => [name, Buffer.byteLength(view(result), 'utf8')]),
  ) as Record<Framework, number>;
}
