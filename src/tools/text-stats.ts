import { defineTool } from '@mcp-lambda/server';

const outputSchema = {
  type: 'object',
  properties: {
    characters: { type: 'integer', minimum: 0 },
    words: { type: 'integer', minimum: 0 },
    lines: { type: 'integer', minimum: 0 },
    topWords: {
      type: 'array',
      items: {
        type: 'object',
        properties: { word: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
        required: ['word', 'count'],
        additionalProperties: false,
      },
    },
  },
  required: ['characters', 'words', 'lines', 'topWords'],
  additionalProperties: false,
} as const;

/** Shows structured output: the result conforms to `outputSchema` and also arrives as serialized text. */
export const textStats = defineTool({
  name: 'text_stats',
  title: 'Text statistics',
  description: 'Counts characters, words and lines in a text and lists its most frequent words.',
  inputSchema: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to analyse', maxLength: 200000 },
      top: {
        type: 'integer',
        minimum: 1,
        maximum: 50,
        default: 5,
        description: 'How many frequent words to list',
      },
    },
    required: ['text'],
    additionalProperties: false,
  },
  outputSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ text, top = 5 }) => {
    const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    const topWords = [...counts.entries()]
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .slice(0, top)
      .map(([word, count]) => ({ word, count }));
    return {
      characters: [...text].length,
      words: words.length,
      lines: text === '' ? 0 : text.split('\n').length,
      topWords,
    };
  },
});
