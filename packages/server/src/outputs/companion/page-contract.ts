import { OutputLimits } from '../../limits.ts';
import { isJsonObject } from '../../protocol/json.ts';
import { eraFromWire, type Era } from '../../protocol/versions.ts';
import { PAGE_MODES, type OutputPage, type PageQuery } from '../paging/page.ts';

/**
 * Version 2 of the contract with the companion function: a page of a stored output (a byte or line range, a
 * search, a JSON or CSV selection) read where the bucket may be read, so the MCP function still holds no
 * s3:GetObject. The companion keeps answering version 1 (`contract.ts`, whole outputs for `resources/read`); each
 * side checks the version and the shape of what it receives.
 */
export const STORED_PAGE_VERSION = 2;

/** MCP function → companion: one page of one stored-output URI, on behalf of a caller. */
export interface StoredPageRequest {
  version: typeof STORED_PAGE_VERSION;
  uri: string;
  requestId: string;
  era: Era;
  principal?: string;
  query: PageQuery;
}

/** Companion → MCP function. `refused` carries a message for the model; `unavailable` carries no detail. */
export type StoredPageResponse =
  | { version: typeof STORED_PAGE_VERSION; status: 'page'; page: OutputPage }
  | { version: typeof STORED_PAGE_VERSION; status: 'refused'; message: string }
  | { version: typeof STORED_PAGE_VERSION; status: 'not_found' | 'unavailable' | 'invalid_request' };

const KEYS_REQUEST = new Set(['version', 'uri', 'requestId', 'era', 'principal', 'query']);
const shortString = (v: unknown, max: number, min = 1): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max;
const int = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): v is number =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

/** The fields each mode takes besides `mode` and `budget`, with their checks. */
const QUERY_FIELDS: Record<PageQuery['mode'], Record<string, (v: unknown) => boolean>> = {
  bytes: { offset: (v) => int(v, 0), length: (v) => int(v, 1) },
  lines: { line: (v) => int(v, 1), lines: (v) => int(v, 1) },
  search: {
    text: (v) => shortString(v, 1000),
    ignoreCase: (v) => typeof v === 'boolean',
    context: (v) => int(v, 0, 10),
    maxMatches: (v) => int(v, 1, 100),
    line: (v) => int(v, 1),
  },
  json: { pointer: (v) => shortString(v, 2000, 0), item: (v) => int(v, 0), items: (v) => int(v, 1) },
  csv: { row: (v) => int(v, 1), rows: (v) => int(v, 1) },
};

/** Checks a query: a known mode with exactly its fields, each in range, and a budget within the page bounds. */
export function parsePageQuery(value: unknown): PageQuery | undefined {
  if (!isJsonObject(value) || !PAGE_MODES.includes(value.mode as PageQuery['mode'])) return undefined;
  const fields = QUERY_FIELDS[value.mode as PageQuery['mode']];
  if (!int(value.budget, OutputLimits.minPageBytes, OutputLimits.maxPageBytes)) return undefined;
  const names = Object.keys(value).filter((k) => k !== 'mode' && k !== 'budget');
  if (names.length !== Object.keys(fields).length) return undefined;
  if (!names.every((name) => Object.hasOwn(fields, name) && fields[name]!(value[name]))) return undefined;
  return value as unknown as PageQuery;
}

/** Checks a request; `undefined` when it is not exactly a version-2 request. */
export function parseStoredPageRequest(value: unknown): StoredPageRequest | undefined {
  if (!isJsonObject(value) || value.version !== STORED_PAGE_VERSION) return undefined;
  if (Object.keys(value).some((k) => !KEYS_REQUEST.has(k))) return undefined;
  const { uri, requestId, principal } = value;
  const era = eraFromWire(value.era);
  if (!shortString(uri, 2048) || !shortString(requestId, 256) || !era) return undefined;
  if (principal !== undefined && !shortString(principal, 1024)) return undefined;
  const query = parsePageQuery(value.query);
  if (!query) return undefined;
  return {
    version: STORED_PAGE_VERSION,
    uri,
    requestId,
    era,
    ...(principal !== undefined ? { principal } : {}),
    query,
  };
}

const OPTIONAL_COUNTS = ['lines', 'offset', 'length', 'nextOffset', 'line', 'lastLine', 'nextLine'] as const;

/** The shape of a page: the facts and the text, counts where counts go (the tool's outputSchema checks the rest). */
function isOutputPage(value: unknown): value is OutputPage {
  if (!isJsonObject(value)) return false;
  const { uri, mimeType, size, expiresAt, mode, text, sha256, summary } = value;
  if (typeof uri !== 'string' || typeof mimeType !== 'string' || typeof expiresAt !== 'string') return false;
  if (typeof summary !== 'string') return false;
  if (!int(size, 0) || typeof text !== 'string' || !PAGE_MODES.includes(mode as PageQuery['mode']))
    return false;
  if (sha256 !== undefined && typeof sha256 !== 'string') return false;
  return OPTIONAL_COUNTS.every((k) => value[k] === undefined || int(value[k], 0));
}

/** Checks a response; `undefined` when it is not a well-formed version-2 response. */
export function parseStoredPageResponse(value: unknown): StoredPageResponse | undefined {
  if (!isJsonObject(value) || value.version !== STORED_PAGE_VERSION) return undefined;
  switch (value.status) {
    case 'page':
      return isOutputPage(value.page)
        ? { version: STORED_PAGE_VERSION, status: 'page', page: value.page }
        : undefined;
    case 'refused':
      return shortString(value.message, 4096)
        ? { version: STORED_PAGE_VERSION, status: 'refused', message: value.message }
        : undefined;
    case 'not_found':
    case 'unavailable':
    case 'invalid_request':
      return { version: STORED_PAGE_VERSION, status: value.status };
    default:
      return undefined;
  }
}
