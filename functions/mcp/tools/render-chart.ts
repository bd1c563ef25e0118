import { defineTool } from '@mcp-lambda/server';
import { renderPng } from './media.ts';

/** Produces a binary output (a PNG). Large images are stored and linked like large text. */
export const renderChart = defineTool({
  name: 'render_chart',
  title: 'Render chart',
  description: 'Renders a bar chart of the given values as a PNG image of the requested size.',
  inputSchema: {
    type: 'object',
    properties: {
      values: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 1, maxItems: 100 },
      width: { type: 'integer', minimum: 16, maximum: 4096, default: 640 },
      height: { type: 'integer', minimum: 16, maximum: 4096, default: 480 },
    },
    required: ['values'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ values, width = 640, height = 480 }, ctx) => {
    const max = Math.max(...values, 1e-9);
    const barWidth = width / values.length;
    // Up to 16 million pixels: a checkpoint per row keeps the call within its time budget.
    const png = await renderPng(
      width,
      height,
      (x, y) => {
        const bar = Math.min(values.length - 1, Math.floor(x / barWidth));
        const top = height - Math.round((values[bar]! / max) * (height - 8));
        const inBar = y >= top && x % barWidth > 1;
        // Noise keeps large images from compressing to nothing, so size tracks the requested dimensions.
        const grain = (x * 7 + y * 13) % 9;
        return inBar ? [40 + grain, 110 + ((bar * 9) % 100), 200] : [250 - grain, 250 - grain, 250];
      },
      ctx.checkpoint,
    );
    return { type: 'image', data: png.toString('base64'), mimeType: 'image/png' };
  },
});
