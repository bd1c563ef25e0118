/**
 * A read_output result as one page, from its content blocks: the page text (the second block, absent when the page
 * is empty) and the summary (the first) over the position the structured result holds (which repeats both).
 */
export function pageOf(result: {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
}): any {
  const [summary, text] = result.content;
  return {
    ...(result.structuredContent as Record<string, unknown>),
    summary: summary?.text ?? '',
    text: text?.text ?? '',
  };
}
