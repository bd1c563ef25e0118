/**
 * The example tools as the official SDKs declare them: the same names, titles, descriptions, annotations and
 * argument rules, written as Zod schemas (the idiom of both SDK lines, which already depend on Zod), and the very
 * same handler functions as `src/tools/`, so every server in the benchmark does identical work.
 */
import { z } from 'zod';
import { contentGallery } from '../../../src/tools/content-gallery.ts';
import { generateReport } from '../../../src/tools/generate-report.ts';
import { ping } from '../../../src/tools/ping.ts';
import { renderChart } from '../../../src/tools/render-chart.ts';
import { safeDivide } from '../../../src/tools/safe-divide.ts';
import { textStats } from '../../../src/tools/text-stats.ts';
import { type ToolContext, type ToolDefinition, ToolError, StreamedContent } from '@mcp-lambda/server';
import type { CallToolResult, ToolAnnotations } from '@mcp-lambda/server/protocol';
import { silentLogger } from '@mcp-lambda/server/lambda';
import { toCallToolResult } from '../../../packages/server/src/tools/result.ts';

/** One tool in SDK terms. */
export interface BaselineTool {
  name: string;
  title?: string;
  description: string;
  annotations?: ToolAnnotations;
  inputSchema?: z.ZodObject;
  outputSchema?: z.ZodObject;
  /** Runs the shared handler; a thrown error is left to the SDK, which turns it into an `isError` result. */
  run(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/** Instructions sent in `initialize` / `server/discover`, as the MCP function sends them. */
export const INSTRUCTIONS =
  'Large tool outputs arrive as a notice naming their mcp-output:// uri, and its resource_link: page through ' +
  'or search them with the read_output tool (or resources/read) when you need the content.';

const int = () => z.number().int();

const SCHEMAS: Record<string, { input?: z.ZodObject; output?: z.ZodObject }> = {
  ping: {},
  safe_divide: {
    input: z.strictObject({
      a: z.number().describe('Dividend'),
      b: z.number().describe('Divisor (must not be 0)'),
    }),
  },
  text_stats: {
    input: z.strictObject({
      text: z.string().max(200000).describe('The text to analyse'),
      top: int().min(1).max(50).default(5).describe('How many frequent words to list'),
    }),
    output: z.strictObject({
      characters: int().min(0),
      words: int().min(0),
      lines: int().min(0),
      topWords: z.array(z.strictObject({ word: z.string(), count: int().min(1) })),
    }),
  },
  content_gallery: {},
  generate_report: {
    input: z.strictObject({
      rows: int().min(1).max(3000000).default(1000).describe('Number of data rows'),
      seed: int().min(0).default(1).describe('Seed for the deterministic generator'),
    }),
  },
  render_chart: {
    input: z.strictObject({
      values: z.array(z.number().min(0)).min(1).max(100),
      labels: z.array(z.string().max(40)).max(100).optional(),
      series: z
        .array(
          z.strictObject({ name: z.string().max(40), values: z.array(z.number().min(0)).min(1).max(100) }),
        )
        .max(4)
        .optional(),
      width: int().min(16).max(4096).default(640),
      height: int().min(16).max(4096).default(480),
    }),
  },
};

/** The context a shared handler gets outside our server: a signal, and no storage. */
export function toolContext(signal: AbortSignal): ToolContext {
  return {
    requestId: 'baseline',
    signal,
    closeStream: () => false,
    era: 'handshake',
    protocolVersion: '',
    log: silentLogger,
    progress: () => undefined,
    notify: () => undefined,
    store: () => Promise.reject(new ToolError('This server has no storage for large outputs.')),
    // The example tools never ask; these stand in for the asking methods a context always has.
    elicit: () => Promise.reject(new ToolError('This server cannot ask the client.')),
    sample: () => Promise.reject(new ToolError('This server cannot ask the client.')),
    roots: () => Promise.reject(new ToolError('This server cannot ask the client.')),
    // The SDK servers have no time budget of their own: a checkpoint only observes the request's signal.
    checkpoint: async () => {
      if (signal.aborted) throw signal.reason;
    },
  };
}

/**
 * A streamed output collected whole: the SDK servers have no storage, so they return every output inline, as their
 * users would (text only: the shared tools stream text).
 */
export async function collectStreamed(value: unknown): Promise<unknown> {
  if (!(value instanceof StreamedContent)) return value;
  const chunks: Buffer[] = [];
  for await (const chunk of value.source)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function toBaseline(definition: ToolDefinition): BaselineTool {
  const schemas = SCHEMAS[definition.name];
  if (!schemas) throw new Error(`No SDK schema for tool ${definition.name}`);
  return {
    name: definition.name,
    ...(definition.title ? { title: definition.title } : {}),
    description: definition.description,
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
    ...(schemas.input ? { inputSchema: schemas.input } : {}),
    ...(schemas.output ? { outputSchema: schemas.output } : {}),
    run: async (args, signal) =>
      toCallToolResult(await collectStreamed(await definition.handler(args, toolContext(signal)))),
  };
}

/** The example tools, in the order the MCP function lists them. */
export const baselineTools: readonly BaselineTool[] = [
  ping,
  safeDivide,
  textStats,
  contentGallery,
  generateReport,
  renderChart,
].map(toBaseline);
