import { defineView } from '../../packages/server/src/index.ts';

/**
 * The views this function serves (MCP Apps, docs/views.md). Each document is built from `functions/views/<name>/`
 * by `npm run generate` into `views/<name>.generated.ts`, and imported only when a host first reads the view, so it
 * never enters the function's start-up graph.
 */

/** Pages through a stored output (a table, text with search, JSON by pointer, media previews) with read_output. */
export const outputViewer = defineView({
  uri: 'ui://mcp-lambda/output-viewer',
  name: 'output-viewer',
  title: 'Stored output viewer',
  description:
    'Pages through a large stored output with read_output: CSV as a table, text with search, JSON by pointer.',
  prefersBorder: true,
  html: async () => (await import('./views/output-viewer.generated.ts')).default,
});

/** The interactive form of render_chart's image: values on hover, series toggles. */
export const chartView = defineView({
  uri: 'ui://mcp-lambda/chart',
  name: 'chart',
  title: 'Chart',
  description: 'An interactive bar chart of render_chart arguments: values on hover, series toggles.',
  prefersBorder: true,
  html: async () => (await import('./views/chart.generated.ts')).default,
});

/** Shows a proposed action with Approve and Reject (tools gated with `approval`). */
export const approvalView = defineView({
  uri: 'ui://mcp-lambda/approval',
  name: 'approval',
  title: 'Approval',
  description: 'Shows what a consequential tool call will do and lets the person approve or reject it.',
  prefersBorder: true,
  html: async () => (await import('./views/approval.generated.ts')).default,
});
