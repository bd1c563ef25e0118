import { defineTool, ToolError } from '@mcp-lambda/server';
import { chartView } from '../views.ts';
import { renderPng } from './media.ts';

/** Bar colours of the series, in order (the chart view uses the same). */
const PALETTE: readonly (readonly [number, number, number])[] = [
  [40, 110, 200],
  [220, 120, 40],
  [60, 160, 90],
  [160, 80, 180],
  [200, 60, 80],
];

/**
 * Produces a binary output (a PNG): a bar chart of one or more series. Large images are stored and linked like large
 * text. Hosts that show views render it interactively (values on hover, series toggles) from the same arguments;
 * the image stays the result, so every other host shows what it showed before.
 */
export const renderChart = defineTool({
  name: 'render_chart',
  title: 'Render chart',
  description:
    'Renders a bar chart of the given values (labels, series optional) as a PNG of the requested size.',
  inputSchema: {
    type: 'object',
    properties: {
      values: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 1, maxItems: 100 },
      labels: { type: 'array', items: { type: 'string', maxLength: 40 }, maxItems: 100 },
      series: {
        type: 'array',
        maxItems: 4,
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 40 },
            values: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 1, maxItems: 100 },
          },
          required: ['name', 'values'],
          additionalProperties: false,
        },
      },
      width: { type: 'integer', minimum: 16, maximum: 4096, default: 640 },
      height: { type: 'integer', minimum: 16, maximum: 4096, default: 480 },
    },
    required: ['values'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  view: chartView,
  handler: async ({ values, labels, series = [], width = 640, height = 480 }, ctx) => {
    // The schema cannot say "as long as values": one check, one message for both.
    if ([labels ?? values, ...series.map((s) => s.values)].some((list) => list.length !== values.length))
      throw new ToolError(`Give labels and every series exactly one entry per value (${values.length}).`);
    const all = [values, ...series.map((s) => s.values)];
    const max = Math.max(...all.flat(), 1e-9);
    const groupWidth = width / values.length;
    const barWidth = groupWidth / all.length;
    // Up to 16 million pixels: a checkpoint per row keeps the call within its time budget.
    const png = await renderPng(
      width,
      height,
      (x, y) => {
        const group = Math.min(values.length - 1, Math.floor(x / groupWidth));
        const which = Math.min(all.length - 1, Math.floor((x - group * groupWidth) / barWidth));
        const top = height - Math.round((all[which]![group]! / max) * (height - 8));
        const inBar = y >= top && (x - group * groupWidth) % barWidth > 1;
        // Noise keeps large images from compressing to nothing, so size tracks the requested dimensions.
        const grain = (x * 7 + y * 13) % 9;
        const [r, g, b] = PALETTE[which]!;
        return inBar ? [r + grain, g, b] : [250 - grain, 250 - grain, 250];
      },
      ctx.checkpoint,
    );
    return { type: 'image', data: png.toString('base64'), mimeType: 'image/png' };
  },
});
