import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, createOffloader } from '@mcp-lambda/server/lambda';
import { startCompanion, type TestCompanion } from '../support/companion.ts';
import { serveMcpFunction } from '../support/local.ts';
import {
  type RunningServer,
  statelessHeaders,
  statelessMeta,
  startTestS3,
  type TestS3,
  pageOf,
} from '@mcp-lambda/dev/testing';

// read_output under abuse, against the real MCP function and companion: every bad number, string, pointer and URI
// is an isError result the model can act on (never a protocol error or a stack trace), other callers', expired and
// malformed URIs read exactly alike, and the server goes on serving after each.

const DAY = 86_400_000;
let s3: TestS3;
let companion: TestCompanion;
let fn: RunningServer;
let id = 0;
const uris: Record<'text' | 'binary' | 'foreign' | 'expired', string> = {} as never;
let size = 0;

async function rpc(method: string, params: Record<string, unknown>, stateless: boolean) {
  const res = await fetch(fn.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(stateless
        ? statelessHeaders(method, typeof params.name === 'string' ? params.name : undefined)
        : { 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: { ...params, ...(stateless ? { _meta: statelessMeta() } : {}) },
    }),
  });
  expect(res.status).toBe(200);
  const answer = (await res.json()) as { result?: any; error?: unknown };
  expect(answer.error).toBeUndefined();
  return answer.result;
}

const linkOf = (result: any) => result.content.find((b: any) => b.type === 'resource_link').uri as string;

beforeAll(async () => {
  s3 = await startTestS3();
  Object.assign(process.env, s3.env(), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  companion = await startCompanion();
  fn = await serveMcpFunction(companion.env);
  const report = await rpc('tools/call', { name: 'generate_report', arguments: { rows: 2000 } }, false);
  uris.text = linkOf(report);
  size = report.content.find((b: any) => b.type === 'resource_link').size;
  const chart = { values: [3, 1, 4, 1, 5], width: 2048, height: 2048 };
  uris.binary = linkOf(await rpc('tools/call', { name: 'render_chart', arguments: chart }, false));
  // Written with the same bucket and prefix: one for another caller, one that expired yesterday.
  const store = (now: number, principal?: string) =>
    createOffloader({
      storage: s3.storage(),
      prefix: 'outputs/',
      thresholdBytes: 10,
      ttlDays: 7,
      now: () => now,
    }).store(
      { data: 'some text '.repeat(100), mimeType: 'text/plain' },
      { tool: 't', requestId: 'r', log: silentLogger, ...(principal ? { principal } : {}) },
    );
  uris.foreign = (await store(Date.now(), 'another-caller')).uri;
  uris.expired = (await store(Date.now() - 8 * DAY)).uri;
}, 60_000);

afterAll(async () => {
  await fn?.close();
  await companion?.close();
  await s3?.close();
});

type Case = [string, () => Record<string, unknown>, RegExp];

const invalid = (field: string, rule: string) =>
  new RegExp(`^Invalid arguments for tool "read_output": .*${field}.* ${rule}.*Fix the arguments`);

const CASES: Case[] = [
  ['a negative offset', () => ({ uri: uris.text, offset: -1 }), invalid('"offset"', 'must be >= 0')],
  ['a fractional offset', () => ({ uri: uris.text, offset: 1.5 }), invalid('"offset"', 'must be integer')],
  ['an offset as a string', () => ({ uri: uris.text, offset: '10' }), invalid('"offset"', 'must be integer')],
  [
    'a huge offset',
    () => ({ uri: uris.text, offset: 1e20 }),
    /^offset must be at most 1000000000000 \(it was 100000000000000000000\)\.$/,
  ],
  [
    'an offset past the end',
    () => ({ uri: uris.text, offset: size }),
    /^offset [\d,]+ is past the end of the output, which has [\d,]+ bytes \(offsets 0 to [\d,]+\)\. Ask for an offset below/,
  ],
  ['the largest offset allowed', () => ({ uri: uris.text, offset: 1e12 }), /is past the end of the output/],
  ['a count of zero', () => ({ uri: uris.text, count: 0 }), invalid('"count"', 'must be >= 1')],
  ['a negative count', () => ({ uri: uris.text, count: -5 }), invalid('"count"', 'must be >= 1')],
  [
    'a huge count',
    () => ({ uri: uris.text, count: 2 ** 53 }),
    /^count must be at most 1000000000000 \(it was 9007199254740992\)\.$/,
  ],
  ['line zero', () => ({ uri: uris.text, line: 0 }), invalid('"line"', 'must be >= 1')],
  [
    'a line past the end',
    () => ({ uri: uris.text, line: 999_999 }),
    /^line 999,999 is past the end of the output, which has 2,001 lines/,
  ],
  [
    'a CSV row past the end',
    () => ({ uri: uris.text, row: 5000 }),
    /^row 5,000 is past the end: the output has 2,000 data rows/,
  ],
  [
    'an empty search',
    () => ({ uri: uris.text, search: '' }),
    invalid('"search"', 'must NOT have fewer than 1 characters'),
  ],
  [
    'a 10 kB search',
    () => ({ uri: uris.text, search: 'w'.repeat(10_240) }),
    /^search must be at most 1000 characters \(it had 10240\)\.$/,
  ],
  [
    'a pointer without a leading slash',
    () => ({ uri: uris.text, pointer: 'items/0' }),
    /^pointer "items\/0" must be "" \(the whole document\) or start with "\/"/,
  ],
  [
    'a pointer with a bad escape',
    () => ({ uri: uris.text, pointer: '/a~2b' }),
    /^pointer "\/a~2b" has "~" not followed by 0 or 1; write "~0" for "~" and "~1" for "\/"/,
  ],
  [
    'a pointer in fragment form',
    () => ({ uri: uris.text, pointer: '#/a' }),
    /^pointer "#\/a" is in URI fragment form; pass the plain form without "#"/,
  ],
  [
    'a pointer into an output that is not JSON',
    () => ({ uri: uris.text, pointer: '/a' }),
    /^The output \(text\/csv\) is not valid JSON .*Read it by offset or by line instead/,
  ],
  [
    'two ways to read at once',
    () => ({ uri: uris.text, offset: 0, search: 'x' }),
    /^Choose one way to read per call: .*This call combined offset, search\./,
  ],
  [
    'search options without a search',
    () => ({ uri: uris.text, context: 3 }),
    /^ignoreCase and context go with search/,
  ],
  [
    'an unknown argument',
    () => ({ uri: uris.text, regex: 'a.*b' }),
    invalid('the arguments object', 'has unexpected field "regex"'),
  ],
  [
    'no uri',
    () => ({ offset: 0 }),
    /^Invalid arguments for tool "read_output": missing required field "uri"/,
  ],
  [
    'a binary output',
    () => ({ uri: uris.binary }),
    /^mcp-output:\/\/outputs\/[0-9a-f]{32} is binary \(image\/png, [\d,]+ bytes \([\d.]+ KiB\), SHA-256 [0-9a-f]{64}\), so it cannot be read as text or in pages\. Read it with resources\/read/,
  ],
];

/** URIs that are not a live output of this caller: all must read exactly alike. */
const NOT_FOUND: [string, () => string][] = [
  ["another caller's output", () => uris.foreign],
  ['an expired output', () => uris.expired],
  ['an unknown id', () => `mcp-output://outputs/${'0'.repeat(32)}`],
  ['a tampered id', () => uris.text.slice(0, -1) + (uris.text.endsWith('0') ? '1' : '0')],
  ['a part of an output stored whole', () => `${uris.text}/part-2`],
  ['path traversal', () => `mcp-output://outputs/../../etc/${'0'.repeat(32)}`],
  ['percent escapes', () => uris.text.replace('outputs/', 'outputs%2F')],
  ['an upper-case id', () => uris.text.replace(/[0-9a-f]{32}$/, (m) => m.toUpperCase())],
  ['a query', () => `${uris.text}?versionId=1`],
  ['part zero', () => `${uris.text}/part-0`],
  ['another prefix', () => uris.text.replace('outputs/', 'private/')],
  ['another scheme', () => uris.text.replace('mcp-output:', 'file:')],
  ['the bare scheme', () => 'mcp-output:'],
  ['an empty string', () => ''],
  ['10 kB of junk', () => `mcp-output://${'x'.repeat(10_240)}`],
];

describe.each([
  ['handshake era', false],
  ['2026-07-28', true],
] as const)('read_output under abuse (%s)', (_era, stateless) => {
  const call = (args: Record<string, unknown>) =>
    rpc('tools/call', { name: 'read_output', arguments: args }, stateless);
  const serving = async () => {
    expect((await rpc('tools/call', { name: 'ping', arguments: {} }, stateless)).content[0].text).toBe(
      'pong',
    );
  };

  it.each(CASES)('%s: a clear isError, and the server serves on', async (_what, args, message) => {
    const result = await call(args());
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0].text).toMatch(message);
    expect(result.content[0].text.length).toBeLessThan(700);
    expect(result.content[0].text).not.toMatch(
      /\bat \w+ \(|node_modules|127\.0\.0\.1|StorageError|wwwwwwwwww{200}/,
    );
    await serving();
  });

  it.each(NOT_FOUND)('%s: the same "not found" as any other', async (_what, uri) => {
    const result = await call({ uri: uri() });
    expect(result.isError).toBe(true);
    const text: string = result.content[0].text;
    const shown = JSON.stringify(
      uri().length <= 128 ? uri() : `${uri().slice(0, 128)}… (${uri().length} characters)`,
    );
    expect(text.replace(shown, '<uri>')).toBe(
      'No stored output was found for uri <uri>. Stored outputs expire, and each is readable only by the caller it ' +
        'was made for. Pass the uri exactly as the resource link gave it, or call the tool that produced the output again.',
    );
    await serving();
  });

  it('still reads the output after all of it', async () => {
    const result = await call({ uri: uris.text, line: 1, count: 1 });
    expect(pageOf(result).text).toBe('id,date,region,units,unit_price,total\n');
  });
});
