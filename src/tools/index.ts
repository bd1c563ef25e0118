import type { ToolDefinition } from '@mcp-lambda/server';
import { contentGallery } from './content-gallery.ts';
import { generateReport } from './generate-report.ts';
import { ping } from './ping.ts';
import { renderChart } from './render-chart.ts';
import { safeDivide } from './safe-divide.ts';
import { textStats } from './text-stats.ts';

/** The tools this function serves, in the order `tools/list` shows them. Add yours here. */
export const tools: ToolDefinition[] = [
  ping,
  safeDivide,
  textStats,
  contentGallery,
  generateReport,
  renderChart,
];
