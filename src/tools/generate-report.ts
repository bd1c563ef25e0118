import { defineTool, streamedText, type ToolContext } from '@mcp-lambda/server';
import { outputViewer } from '../views.ts';

/**
 * Produces a large text output (a CSV report), streamed as it is made. Above the offload threshold the server stores it and the model
 * receives a resource_link plus a short summary instead of megabytes of text, then reads the parts it needs with
 * the built-in read_output tool (pages, CSV rows, search). It may run as a task (docs/tasks.md).
 */
export const generateReport = defineTool({
  name: 'generate_report',
  title: 'Generate report',
  description:
    'Generates a synthetic sales report as CSV with the requested number of rows (about 40 bytes a row). ' +
    'Large reports come back as a resource link with a summary: page through them, pick CSV rows or search them ' +
    'with read_output.',
  inputSchema: {
    type: 'object',
    properties: {
      rows: {
        type: 'integer',
        minimum: 1,
        maximum: 3000000,
        default: 1000,
        description: 'Number of data rows',
      },
      seed: { type: 'integer', minimum: 0, default: 1, description: 'Seed for the deterministic generator' },
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // Big reports take a while: for clients that accept tasks the report is built by the task worker, and a report
  // ready within 2 s still comes back directly, as from an ordinary call.
  task: { mode: 'optional', afterMs: 2_000 },
  // Hosts that show views page through the stored report in the output viewer, for the person; the model keeps
  // the short notice.
  view: outputViewer,
  // The report is streamed: rows leave in blocks as they are made, so memory stays flat up to its maximum of about 120 MB
  // (docs/outputs.md "Streamed outputs"). Small reports still come back inline.
  handler: ({ rows = 1000, seed = 1 }, ctx) =>
    streamedText(reportRows(rows, seed, ctx), { mimeType: 'text/csv' }),
});

/** Rows per block streamed: about 40 KB of CSV. */
const ROWS_PER_BLOCK = 1000;

/** The report's CSV, a block of rows at a time, from a deterministic generator (xorshift32). */
async function* reportRows(rows: number, seed: number, ctx: ToolContext): AsyncGenerator<string> {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const regions = ['north', 'south', 'east', 'west'];
  let block = 'id,date,region,units,unit_price,total\n';
  for (let i = 1; i <= rows; i++) {
    const units = 1 + Math.floor(next() * 100);
    const price = (5 + next() * 95).toFixed(2);
    const day = String(1 + (i % 28)).padStart(2, '0');
    block += `${i},2026-11-${day},${regions[i % 4]},${units},${price},${(units * Number(price)).toFixed(2)}\n`;
    if (i % ROWS_PER_BLOCK === 0) {
      yield block;
      block = '';
      // Up to 3,000,000 rows: check the time budget now and then (README "Add a tool").
      await ctx.checkpoint();
    }
  }
  if (block) yield block;
}
