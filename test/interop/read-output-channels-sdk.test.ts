import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '@mcp-lambda/server';
import { startTestS3, type RunningServer, type TestS3 } from '@mcp-lambda/dev/testing';
import { serveInParts, startCompanion, type TestCompanion } from '../support/companion.ts';
import { serveMcpFunction } from '../support/local.ts';
import { reportText } from '../support/report.ts';

// Issue 31: clients that hand their model one channel of a tool result. Some show only `structuredContent` (the
// OpenAI Agents SDK with useStructuredContent, mcporter's default output); others drop `resource_link` blocks and
// keep the text. Through the official SDK clients, each channel alone must be enough to find a stored output and
// read it whole: the real MCP function and a server storing in parts, reading through the real companion function.

/** About 200 KB of text with multi-byte characters and characters JSON escapes (stored in several parts below). */
const SOURCE = Array.from({ length: 4000 }, (_, i) => `${i}\t"é€😀" \\ line ${i}\n`).join('');
const URI = /mcp-output:\/\/[^\s),]+/g;

let s3: TestS3;
let companion: TestCompanion;
let fn: RunningServer;
let parts: RunningServer;

beforeAll(async () => {
  s3 = await startTestS3();
  Object.assign(process.env, s3.env(), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  companion = await startCompanion();
  fn = await serveMcpFunction(companion.env);
  // Small parts, so outputs of a few hundred kilobytes are stored in several.
  parts = await serveInParts(s3, companion, { name: 'read-output-channels', version: '1.0.0' }, [
    defineTool({ name: 'emit', description: 'Returns a large text', handler: () => SOURCE }),
  ]);
}, 60_000);

afterAll(async () => {
  await fn?.close();
  await parts?.close();
  await companion?.close();
  await s3?.close();
});

type Call = (name: string, args: Record<string, unknown>) => Promise<any>;

async function connect(sdk: '1.x' | '2.x', url: string): Promise<{ call: Call; close(): Promise<void> }> {
  const client =
    sdk === '1.x'
      ? new Client1({ name: 'channels-sdk1', version: '1.0.0' })
      : new Client2(
          { name: 'channels-sdk2', version: '2.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
  await client.connect(sdk === '1.x' ? new Transport1(new URL(url)) : new Transport2(new URL(url)));
  return {
    call: (name, args) => (client as Client1).callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}

/** What a client that shows only the structured result hands its model of a read_output page. */
async function structuredOnly(call: Call, args: Record<string, unknown>): Promise<any> {
  const result = await call('read_output', args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent;
}

/** What a client that drops resource_link blocks hands its model: the text blocks alone. */
const textOnly = (result: any): string =>
  result.content
    .filter((b: any) => b.type === 'text')
    .map((b: any) => b.text)
    .join('\n');

/** Reads a stored output whole from structured results alone, following each page's own words to the next. */
async function readWholeStructured(call: Call, uri: string): Promise<{ text: string; pages: number }> {
  const pages: string[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const page = await structuredOnly(call, { uri, offset });
    pages.push(page.text);
    const next = /Next page: call read_output with the same uri and offset (\d+)\./.exec(page.summary);
    offset = next ? Number(next[1]) : undefined;
    expect(offset).toBe(page.nextOffset);
  }
  return { text: pages.join(''), pages: pages.length };
}

describe.each(['1.x', '2.x'] as const)('one channel at a time, with the official SDK %s client', (sdk) => {
  let fnPeer: Awaited<ReturnType<typeof connect>>;
  let partsPeer: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    fnPeer = await connect(sdk, fn.url);
    partsPeer = await connect(sdk, parts.url);
  });
  afterAll(async () => {
    await fnPeer?.close();
    await partsPeer?.close();
  });

  it('structuredContent alone: read_output pages carry their text, and paging rebuilds the output exactly', async () => {
    const expected = await reportText({ rows: 3000 });
    const report = await fnPeer.call('generate_report', { rows: 3000 });
    const link = report.content.find((b: any) => b.type === 'resource_link');
    const first = await structuredOnly(fnPeer.call, { uri: link.uri });
    expect(expected.startsWith(first.text)).toBe(true);
    expect(first.summary).toMatch(/^Bytes 0–[\d,]+ of mcp-output:.* Next page: call read_output/);
    const rows = await structuredOnly(fnPeer.call, { uri: link.uri, row: 2999, count: 5 });
    const lines = expected.split('\n');
    expect(rows.text).toBe(`${lines[0]}\n${lines[2999]}\n${lines[3000]}\n`);
    expect(rows.summary).toMatch(/This is the last row\.$/);
    const whole = await readWholeStructured(fnPeer.call, link.uri);
    expect(whole.pages).toBeGreaterThan(2);
    expect(Buffer.from(whole.text).equals(Buffer.from(expected))).toBe(true);
  });

  it('structuredContent alone: an output stored in parts reads back byte for byte', async () => {
    const stored = await partsPeer.call('emit', {});
    const links = stored.content.filter((b: any) => b.type === 'resource_link');
    expect(links.length).toBeGreaterThan(2);
    const whole = await readWholeStructured(partsPeer.call, links[0].uri);
    expect(Buffer.from(whole.text).equals(Buffer.from(SOURCE))).toBe(true);
  });

  it('text blocks alone: the notice names the URI, and read_output reads the output with it', async () => {
    const expected = await reportText({ rows: 2000 });
    const report = await fnPeer.call('generate_report', { rows: 2000 });
    const named = textOnly(report).match(URI);
    expect(named).toEqual([report.content.find((b: any) => b.type === 'resource_link').uri]);
    const page = await fnPeer.call('read_output', { uri: named![0], line: 2000, count: 2 });
    expect(page.isError).toBeFalsy();
    expect(textOnly(page)).toMatch(/^Lines 2,000–2,001 of mcp-output:\/\/outputs\/[0-9a-f]{32} /);
    expect(page.content[1].text).toBe(`${expected.split('\n').slice(1999, 2001).join('\n')}\n`);
  });

  it('text blocks alone: the notice of an output in parts names its first part, which reads the whole', async () => {
    const stored = await partsPeer.call('emit', {});
    const links = stored.content.filter((b: any) => b.type === 'resource_link');
    const named = textOnly(stored).match(URI)!;
    expect(named).toEqual([links[0].uri, links.at(-1).uri]);
    const pages: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page = await partsPeer.call('read_output', { uri: named[0], offset });
      expect(page.isError).toBeFalsy();
      pages.push(page.content[1]?.text ?? '');
      const next = /Next page: call read_output with the same uri and offset (\d+)\./.exec(
        page.content[0].text,
      );
      offset = next ? Number(next[1]) : undefined;
    }
    expect(Buffer.from(pages.join('')).equals(Buffer.from(SOURCE))).toBe(true);
  });
});
