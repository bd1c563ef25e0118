/**
 * A read_output result as one page again: its position (`structuredContent`), the page text (the second content
 * block, absent when the page is empty) and the summary (the first), for tests that check all three.
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
