import type { CallToolResult, JSONObject } from '@mcp-lambda/server/protocol';
import type { ViewConnection } from '@mcp-lambda/server/view';
import { resultText } from '../common/dom.ts';

/** One page of a stored output as read_output answers it: the page text and its facts. */
export interface Page {
  text: string;
  facts: JSONObject;
}

/** What the output viewer knows about the output it shows, from the tool result's resource link. */
export interface Output {
  uri: string;
  name: string;
  mimeType: string;
  /** Bytes of the whole output. */
  size: number;
  /** When it stops being readable (ISO 8601), when the link says. */
  expiresAt?: string;
}

/** The `_meta` key stored-output links carry their facts under. */
const OUTPUT_META_KEY = 'mcp-lambda-template/output';

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first stored output a result links to (any part's URI reads the whole output), or undefined. */
export function linkedOutput(result: CallToolResult): Output | undefined {
  const link = (result.content ?? []).find((b) => b.type === 'resource_link');
  if (!link || link.type !== 'resource_link') return undefined;
  const meta = isObject(link._meta) ? link._meta[OUTPUT_META_KEY] : undefined;
  const facts = isObject(meta) ? meta : {};
  const whole = isObject(facts.whole) ? facts.whole : {};
  const size = typeof whole.size === 'number' ? whole.size : (link.size ?? 0);
  return {
    uri: link.uri,
    name: link.title ?? link.name,
    mimeType: link.mimeType ?? 'application/octet-stream',
    size,
    ...(typeof facts.expiresAt === 'string' ? { expiresAt: facts.expiresAt } : {}),
  };
}

/** A read that failed: read_output's own words (not found, expired, refused) or the host's. */
export class ReadFailure extends Error {}

/**
 * Calls read_output through the host. A page is two text blocks, the summary and then the page text exactly (an
 * empty page has no second block); the structured result carries the same with the page's position.
 */
export async function readPage(host: ViewConnection, args: JSONObject): Promise<Page> {
  let result: CallToolResult;
  try {
    result = await host.callTool('read_output', args);
  } catch (error) {
    throw new ReadFailure(`The host could not reach the server: ${(error as Error).message}`);
  }
  if (result.isError) throw new ReadFailure(resultText(result) || 'read_output failed without saying why.');
  const facts = isObject(result.structuredContent) ? result.structuredContent : {};
  const blocks = (result.content ?? []).filter((b) => b.type === 'text');
  const page = blocks[1];
  return { text: page && page.type === 'text' ? page.text : '', facts };
}

/** A CSV page's records (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  return rows;
}
