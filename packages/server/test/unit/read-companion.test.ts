import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.ts';
import type { InvokeCompanion } from '../../src/outputs/companion/ask.ts';
import { remoteStoredOutputs } from '../../src/outputs/companion/client.ts';
import { createStoredReadHandler } from '../../src/outputs/companion/handler.ts';
import {
  parsePageQuery,
  parseStoredPageRequest,
  parseStoredPageResponse,
  STORED_PAGE_VERSION,
} from '../../src/outputs/companion/page-contract.ts';
import { createOffloader } from '../../src/outputs/offloader.ts';
import type { PageQuery } from '../../src/outputs/paging/page.ts';
import { storedOutputPages } from '../../src/outputs/paging/pager.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import type { ResourceContext } from '../../src/resources/provider.ts';
import { memoryStorage } from '../../src/storage/memory.ts';
import { StorageError, type RangeReader } from '../../src/storage/storage.ts';

// Version 2 of the companion contract: pages of stored outputs, checked on both sides, next to version 1.

const ID = '0123456789abcdef0123456789abcdef';
const URI = `mcp-output://outputs/${ID}`;
const ctx: ResourceContext = { era: 'stateless', requestId: 'req-7', log: silentLogger };
const BYTES: PageQuery = { mode: 'bytes', offset: 0, length: 100, budget: 4096 };
const request = (query: unknown = BYTES, extra: Record<string, unknown> = {}) => ({
  version: 2,
  uri: URI,
  requestId: 'r',
  era: 'legacy',
  query,
  ...extra,
});
const PAGE = {
  uri: URI,
  mimeType: 'text/plain',
  size: 3,
  sha256: 'a'.repeat(64),
  expiresAt: '2026-11-30T00:00:00.000Z',
  mode: 'bytes',
  summary: 'Bytes 0–2.',
  text: 'abc',
  offset: 0,
  length: 3,
};

describe('stored-page contract (version 2)', () => {
  it.each<[string, unknown, boolean]>([
    ['bytes', BYTES, true],
    ['lines', { mode: 'lines', line: 1, lines: 5, budget: 2048 }, true],
    [
      'search',
      { mode: 'search', text: 'x', ignoreCase: true, context: 2, maxMatches: 20, line: 1, budget: 2048 },
      true,
    ],
    ['json', { mode: 'json', pointer: '', item: 0, items: 5, budget: 2048 }, true],
    ['csv', { mode: 'csv', row: 1, rows: 5, budget: 2048 }, true],
    ['an unknown mode', { mode: 'regex', budget: 2048 }, false],
    ['a field of another mode', { ...BYTES, line: 1 }, false],
    ['a missing field', { mode: 'bytes', offset: 0, budget: 2048 }, false],
    ['a negative offset', { ...BYTES, offset: -1 }, false],
    ['a huge offset', { ...BYTES, offset: 1e300 }, false],
    ['a fractional length', { ...BYTES, length: 1.5 }, false],
    ['a budget above a page', { ...BYTES, budget: 1 << 20 }, false],
    [
      'an empty search',
      { mode: 'search', text: '', ignoreCase: false, context: 2, maxMatches: 20, line: 1, budget: 2048 },
      false,
    ],
    [
      'a 10 kB search',
      {
        mode: 'search',
        text: 'x'.repeat(10_000),
        ignoreCase: false,
        context: 2,
        maxMatches: 20,
        line: 1,
        budget: 2048,
      },
      false,
    ],
  ])('the companion checks queries: %s', (_what, query, valid) => {
    expect(parsePageQuery(query) !== undefined).toBe(valid);
    expect(parseStoredPageRequest(request(query)) !== undefined).toBe(valid);
  });

  it('the companion refuses requests of another version or with unknown fields', () => {
    expect(parseStoredPageRequest({ ...request(), version: 1 })).toBeUndefined();
    expect(parseStoredPageRequest(request(BYTES, { key: 'outputs/x' }))).toBeUndefined();
    expect(parseStoredPageRequest(request(BYTES, { principal: 'p' }))).toMatchObject({ principal: 'p' });
  });

  it.each<[string, unknown, boolean]>([
    ['a page', { version: 2, status: 'page', page: PAGE }, true],
    ['a refusal', { version: 2, status: 'refused', message: 'offset 9 is past the end' }, true],
    ['not found', { version: 2, status: 'not_found' }, true],
    [
      'a page without a summary',
      { version: 2, status: 'page', page: { ...PAGE, summary: undefined } },
      false,
    ],
    ['a page with a negative offset', { version: 2, status: 'page', page: { ...PAGE, offset: -1 } }, false],
    ['a refusal without a message', { version: 2, status: 'refused' }, false],
    ['a version-1 answer', { version: 1, status: 'not_found' }, false],
  ])('the MCP function checks responses: %s', (_what, value, valid) => {
    expect(parseStoredPageResponse(value) !== undefined).toBe(valid);
  });
});

describe('the companion answers both versions', () => {
  const storage = memoryStorage();
  const handle = createStoredReadHandler(
    storedOutputs({ storage, prefix: 'outputs/' }),
    silentLogger,
    storedOutputPages({ storage, prefix: 'outputs/' }),
  );

  it('reads a whole output for version 1 and a page for version 2', async () => {
    const offloader = createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 10, ttlDays: 1 });
    const link = await offloader.store(
      { data: 'hello pages', mimeType: 'text/plain' },
      { tool: 't', requestId: 'r', log: silentLogger },
    );
    expect(await handle({ version: 1, uri: link.uri, requestId: 'r', era: 'legacy' })).toMatchObject({
      version: 1,
      status: 'found',
    });
    const answer = await handle({ ...request({ ...BYTES, offset: 6 }), uri: link.uri });
    expect(answer).toMatchObject({ version: 2, status: 'page', page: { text: 'pages', offset: 6 } });
    expect(parseStoredPageResponse(answer)).toBeDefined();
    expect(await handle({ ...request({ ...BYTES, offset: 600 }), uri: link.uri })).toMatchObject({
      version: 2,
      status: 'refused',
      message: expect.stringMatching(/past the end/),
    });
    expect(await handle(request())).toEqual({ version: 2, status: 'not_found' });
    expect(await handle(request({ mode: 'bytes' }))).toEqual({ version: 2, status: 'invalid_request' });
  });

  it('answers version 2 as invalid without a pager, and unavailable when storage fails', async () => {
    const bare = createStoredReadHandler(storedOutputs({ storage, prefix: 'outputs/' }), silentLogger);
    expect(await bare(request())).toEqual({ version: 2, status: 'invalid_request' });
    const failing: RangeReader = {
      getRange: async (key) => Promise.reject(new StorageError('get', key, { cause: new Error('reset') })),
      stream: async () => undefined,
    };
    const broken = createStoredReadHandler(
      storedOutputs({ storage, prefix: 'outputs/' }),
      silentLogger,
      storedOutputPages({ storage: failing, prefix: 'outputs/' }),
    );
    expect(await broken(request())).toEqual({ version: 2, status: 'unavailable' });
  });
});

describe('pages through the companion (the MCP function side)', () => {
  const answering =
    (answer: unknown, seen: string[] = []): InvokeCompanion =>
    async (payload) => {
      seen.push(payload);
      return JSON.stringify(answer);
    };

  it('sends a version-2 request with the caller and passes the page on', async () => {
    const seen: string[] = [];
    const pager = remoteStoredOutputs({
      prefix: 'outputs/',
      invoke: answering({ version: 2, status: 'page', page: PAGE }, seen),
    });
    expect(await pager.readPage(URI, BYTES, { ...ctx, principal: 'alice' })).toEqual({
      status: 'page',
      page: PAGE,
    });
    expect(JSON.parse(seen[0]!)).toEqual({
      version: STORED_PAGE_VERSION,
      uri: URI,
      requestId: 'req-7',
      era: 'modern',
      principal: 'alice',
      query: BYTES,
    });
  });

  it('never sends a malformed URI, and passes refusals and not-found on', async () => {
    const seen: string[] = [];
    const pager = remoteStoredOutputs({
      prefix: 'outputs/',
      invoke: answering({ version: 2, status: 'not_found' }, seen),
    });
    expect(await pager.readPage(`${URI}/../x`, BYTES, ctx)).toEqual({ status: 'not_found' });
    expect(seen).toEqual([]);
    expect(await pager.readPage(URI, BYTES, ctx)).toEqual({ status: 'not_found' });
    const refusing = remoteStoredOutputs({
      prefix: 'outputs/',
      invoke: answering({ version: 2, status: 'refused', message: 'no' }),
    });
    expect(await refusing.readPage(URI, BYTES, ctx)).toEqual({ status: 'refused', message: 'no' });
  });

  it.each<[string, InvokeCompanion]>([
    ['the invoke fails', async () => Promise.reject(new Error('Rate exceeded'))],
    ['the answer is not JSON', async () => 'Task timed out'],
    ['the answer is version 1', answering({ version: 1, status: 'not_found' })],
    ['the companion is unavailable', answering({ version: 2, status: 'unavailable' })],
    ['the companion refused the request', answering({ version: 2, status: 'invalid_request' })],
    [
      'the page is for another URI',
      answering({ version: 2, status: 'page', page: { ...PAGE, uri: 'mcp-output://outputs/x' } }),
    ],
    [
      'the page is of another mode',
      answering({ version: 2, status: 'page', page: { ...PAGE, mode: 'csv' } }),
    ],
  ])('answers unavailable when %s', async (_what, invoke) => {
    expect(await remoteStoredOutputs({ prefix: 'outputs/', invoke }).readPage(URI, BYTES, ctx)).toEqual({
      status: 'unavailable',
    });
  });
});
