import { defineView } from '@mcp-lambda/server';

/** A built view's document, imported on first use (each `import()` is a chunk of its own). */
const built = (load: () => Promise<{ default: string }>) => async () => (await load()).default;

/**
 * The views this function serves (MCP Apps, docs/views.md). Each document is built from `views/<name>/` by
 * `npm run generate` into `generated/views/<name>.generated.ts`, and imported only when a host first reads the
 * view, so it never enters the function's start-up graph.
 */

/** Pages through a stored output (a table, text with search, JSON by pointer, media previews) with read_output. */
export const outputViewer = defineView({
  uri: 'ui://mcp-lambda/output-viewer',
  name: 'output-viewer',
  description:
    'Pages through a large stored output with read_output: CSV as a table, text with search, JSON by pointer.',
  prefersBorder: true,
  html: built(() => import('./generated/views/output-viewer.generated.ts')),
});

/** The interactive form of render_chart's image: values on hover, series toggles. */
export const chartView = defineView({
  uri: 'ui://mcp-lambda/chart',
  name: 'chart',
  prefersBorder: true,
  html: built(() => import('./generated/views/chart.generated.ts')),
});

/** Shows a proposed action with Approve and Reject (tools gated with `approval`). */
export const approvalView = defineView({
  uri: 'ui://mcp-lambda/approval',
  name: 'approval',
  prefersBorder: true,
  html: built(() => import('./generated/views/approval.generated.ts')),
});
