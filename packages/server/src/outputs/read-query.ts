import { OutputLimits } from '../limits.ts';
import type { PageQuery } from './paging/page.ts';

/**
 * The arguments of `read_output` turned into one page query: which way to read follows from where the page starts
 * (offset, line, search, pointer or item, row), `count` says how much, each with a default, and the page budget
 * follows from the offload threshold. Pure; types and ranges were already checked against the input schema.
 */

/** The tool's arguments, as its input schema allows them. */
export interface ReadOutputArgs {
  uri: string;
  offset?: number;
  line?: number;
  search?: string;
  ignoreCase?: boolean;
  context?: number;
  pointer?: string;
  item?: number;
  row?: number;
  count?: number;
}

/** Default `count` of each way to read (bytes: half a page), the most it may be, and other defaults. */
const READ_DEFAULTS = { lines: 100, maxMatches: 20, items: 50, rows: 50, context: 2 } as const;
const MOST = { lines: 10_000, maxMatches: 100, items: 10_000, rows: 10_000 } as const;

/**
 * The page budget for an offload threshold: half of it, so the page (with its header line) stays under the
 * threshold and is never stored itself, within `OutputLimits.minPageBytes`…`maxPageBytes`.
 */
export function pageBudget(thresholdBytes: number): number {
  const half = Math.floor(thresholdBytes / 2);
  return Math.min(OutputLimits.maxPageBytes, Math.max(OutputLimits.minPageBytes, half));
}

/** Which way to read each starting argument asks for. */
const STARTS = {
  offset: 'bytes',
  line: 'lines',
  search: 'search',
  pointer: 'json',
  item: 'json',
  row: 'csv',
} as const;

const HOW =
  'offset (bytes), line (a line range), search (with line as where to start, ignoreCase, context), pointer with ' +
  'item (JSON) or row (CSV), each with count';

/** Largest position or count the tool accepts, far past any output (100 parts of 5 MiB). */
export const MAX_POSITION = 1_000_000_000_000;
/** Longest search text and JSON Pointer: longer ones are no real request, and both are echoed in summaries. */
const MAX_TEXT = { search: 1000, pointer: 2000 } as const;

/** Bounds the input schema leaves out (every definition is sent with every model call): a sentence, or undefined. */
function outOfBounds(args: ReadOutputArgs): string | undefined {
  const far = (['offset', 'line', 'item', 'row', 'count'] as const).find(
    (name) => args[name]! > MAX_POSITION,
  );
  if (far) return `${far} must be at most ${MAX_POSITION} (it was ${args[far]}).`;
  const long = (['search', 'pointer'] as const).find((name) => (args[name]?.length ?? 0) > MAX_TEXT[name]);
  if (long) return `${long} must be at most ${MAX_TEXT[long]} characters (it had ${args[long]!.length}).`;
  return undefined;
}

/** The query the arguments ask for, or a sentence saying why they do not make one. */
export function readQuery(args: ReadOutputArgs, budget: number): PageQuery | { refuse: string } {
  const given = (Object.keys(STARTS) as (keyof typeof STARTS)[]).filter((name) => args[name] !== undefined);
  const bounds = outOfBounds(args);
  if (bounds) return { refuse: bounds };
  const modes = new Set(given.map((name) => STARTS[name]));
  // With search, `line` says where the search starts.
  if (modes.has('search')) modes.delete('lines');
  if (modes.size > 1)
    return { refuse: `Choose one way to read per call: ${HOW}. This call combined ${given.join(', ')}.` };
  const mode = [...modes][0] ?? 'bytes';
  if (mode !== 'search' && (args.ignoreCase !== undefined || args.context !== undefined))
    return { refuse: 'ignoreCase and context go with search: pass the text to find as search.' };
  const count = (most: number, fallback: number) => Math.min(most, args.count ?? fallback);
  switch (mode) {
    case 'bytes':
      return {
        mode,
        offset: args.offset ?? 0,
        length: args.count ?? Math.floor(budget / 2),
        budget,
      };
    case 'lines':
      return { mode, line: args.line ?? 1, lines: count(MOST.lines, READ_DEFAULTS.lines), budget };
    case 'search':
      return {
        mode,
        text: args.search!,
        ignoreCase: args.ignoreCase ?? false,
        context: args.context ?? READ_DEFAULTS.context,
        maxMatches: count(MOST.maxMatches, READ_DEFAULTS.maxMatches),
        line: args.line ?? 1,
        budget,
      };
    case 'json':
      return {
        mode,
        pointer: args.pointer ?? '',
        item: args.item ?? 0,
        items: count(MOST.items, READ_DEFAULTS.items),
        budget,
      };
    case 'csv':
      return { mode, row: args.row!, rows: count(MOST.rows, READ_DEFAULTS.rows), budget };
  }
}
