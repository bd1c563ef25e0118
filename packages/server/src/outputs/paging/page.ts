import type { ResourceContext } from '../../resources/provider.ts';
import { doublyEscapedBytes, splitText } from '../parts.ts';

/**
 * Pages of stored outputs: what a caller asks for (a `PageQuery`), what it gets back (an `OutputPage`), and the
 * reader both the MCP function (in-process) and the companion function implement. These types also travel
 * between the two functions (companion contract version 2), so they are plain JSON.
 */

/** One way to select part of a stored output. `budget` bounds the page text (see `fitsBudget`). */
export type PageQuery = (
  | { mode: 'bytes'; offset: number; length: number }
  | { mode: 'lines'; line: number; lines: number }
  | { mode: 'search'; text: string; ignoreCase: boolean; context: number; maxMatches: number; line: number }
  | { mode: 'json'; pointer: string; item: number; items: number }
  | { mode: 'csv'; row: number; rows: number }
) & { budget: number };

export type PageMode = PageQuery['mode'];
export const PAGE_MODES: readonly PageMode[] = ['bytes', 'lines', 'search', 'json', 'csv'];

/** Facts about the whole output, on every page. */
export interface OutputFacts {
  uri: string;
  mimeType: string;
  /** Bytes of the whole output, over all its parts. */
  size: number;
  /** SHA-256 (lower-case hex) of the whole output (known for every output stored since pages were added). */
  sha256?: string;
  /** Lines of the whole output, when they were counted as it was stored. */
  lines?: number;
  /** When the output stops being readable (ISO 8601). */
  expiresAt: string;
}

/** One bounded page of a stored output. */
export interface OutputPage extends OutputFacts {
  mode: PageMode;
  /** Where the page lies in the output and how to get the next one, in a sentence or two. */
  summary: string;
  /** The page: exact bytes of the output (bytes, lines, csv) or a rendering of the selection (search, json). */
  text: string;
  /** Byte range of `text` in the output (bytes, lines, csv) and where the next page starts. */
  offset?: number;
  length?: number;
  nextOffset?: number;
  /** First and last line on the page (lines), where a search resumes, and the line after the page. */
  line?: number;
  lastLine?: number;
  nextLine?: number;
  /** The page stopped early to stay within the page budget. */
  truncated?: boolean;
  search?: {
    text: string;
    ignoreCase: boolean;
    /** Lines containing the text among the lines scanned. */
    matchCount: number;
    /** Whether the scan reached the end of the output (else `matchCount` covers lines up to `scannedTo`). */
    complete: boolean;
    scannedTo: number;
    matches: { line: number; text: string }[];
  };
  json?: {
    pointer: string;
    type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
    /** Bytes of the selected value, serialized compactly. */
    size: number;
    /** Items of an array, members of an object. */
    length?: number;
    item?: number;
    nextItem?: number;
  };
  csv?: {
    header: string[];
    row: number;
    rows: number;
    nextRow?: number;
    /** Data rows of the whole output, when the scan reached its end. */
    totalRows?: number;
  };
  /** Something the caller should know about the page (a length that was capped, a value shown in part). */
  note?: string;
}

/** A page as a reading mode produces it; the pager adds the summary. */
export type PageBody = Omit<OutputPage, 'summary'>;

/** What a page read comes to. `refused` carries a message the model can act on. */
export type PageOutcome =
  | { status: 'page'; page: OutputPage }
  | { status: 'not_found' }
  | { status: 'refused'; message: string }
  | { status: 'unavailable' };

/** Reads pages of stored outputs: the storage-backed reader and the companion client both implement it. */
export interface OutputPager {
  readPage(uri: string, query: PageQuery, ctx: ResourceContext): Promise<PageOutcome>;
}

/** A request that cannot be answered with a page; its message goes to the model as is. */
export class PageRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageRefusal';
  }
}

/**
 * Page text is measured as parts are, doubly escaped (its size inside the Lambda response), so a page of quotes or
 * control characters cannot outgrow what plain text of the same budget would take.
 */
export const pageCost = doublyEscapedBytes;

/** The longest start of `text` within the budget (whole characters only). */
export function fitText(text: string, budget: number): string {
  return pageCost(text) <= budget ? text : splitText(text, Math.max(8, budget))[0]!;
}

export { count } from '../sizes.ts';
