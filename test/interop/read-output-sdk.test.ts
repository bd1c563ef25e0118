import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '@mcp-lambda/server';
import { serveInParts, startCompanion, type TestCompanion } from '../support/companion.ts';
import { serveMcpFunction } from '../support/local.ts';
import { type RunningServer, startTestS3, type TestS3, pageOf } from '@mcp-lambda/dev/testing';
import { reportText } from '../support/report.ts';

// The official SDK clients (1.x, and 2.x in both eras) following stored-output pointers with read_output only, as a
// model limited to tools would: the real MCP function and a server of test tools, both reading through the real
// companion function (invoked over the Lambda API stand-in), with outputs in a local S3-compatible server.

const SEED = Number(process.env.READ_OUTPUT_SEED ?? Date.now() % 100_000);

function random(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return Math.floor(((state >>> 0) / 0x100000000) * n);
  };
}

/** About `size` bytes of text with multi-byte characters, escapes and lines of every length. */
function sample(seed: number, size: number): string {
  const int = random(seed);
  const atoms = ['report', 'West', ' ', '"', '\\', 'é', '€', '😀', '\n', '\n', 'line\n', 'x'.repeat(200)];
  let out = '';
  let bytes = 0;
  while (bytes < size) {
    const atom = atoms[int(atoms.length)]!;
    out += atom;
    bytes += Buffer.byteLength(atom);
  }
  return out;
}

const texts = new Map<string, string>();
let s3: TestS3;
let companion: TestCompanion;
let fn: RunningServer;
let custom: RunningServer;

beforeAll(async () => {
  s3 = await startTestS3();
  Object.assign(process.env, s3.env(), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  companion = await startCompanion();
  fn = await serveMcpFunction(companion.env);
  // Small parts, so outputs of a few hundred kilobytes are stored in several.
  custom = await serveInParts(s3, companion, { name: 'read-output-interop', version: '1.0.0' }, [
    defineTool({
      name: 'emit',
      description: 'Returns the text registered under a key',
      inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } as const,
      handler: ({ key }) => texts.get(key)!,
    }),
  ]);
}, 60_000);

afterAll(async () => {
  await fn?.close();
  await custom?.close();
  await companion?.close();
  await s3?.close();
});

interface Peer {
  listTools(): Promise<any>;
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  close(): Promise<void>;
}

async function connect(sdk: '1.x' | '2.x handshake' | '2.x 2026-07-28', url: string): Promise<Peer> {
  if (sdk === '1.x') {
    const client = new Client1({ name: 'read-sdk1', version: '1.0.0' });
    await client.connect(new Transport1(new URL(url)));
    return {
      listTools: () => client.listTools(),
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      close: () => client.close(),
    };
  }
  // 'legacy' is the SDK's own name for its handshake-era mode.
  const mode = sdk === '2.x handshake' ? ('legacy' as const) : { pin: '2026-07-28' as const };
  const client = new Client2({ name: 'read-sdk2', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new Transport2(new URL(url)));
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    close: () => client.close(),
  };
}

describe.each(['1.x', '2.x handshake', '2.x 2026-07-28'] as const)(
  'read_output with the official SDK %s client',
  (sdk) => {
    let peer: Peer;
    let customPeer: Peer;
    const uriOf = (result: any): string => result.content.find((b: any) => b.type === 'resource_link').uri;
    const read = async (p: Peer, uri: string, args: Record<string, unknown>) => {
      const result = await p.callTool('read_output', { uri, ...args });
      if (result.isError) throw new Error(result.content[0].text);
      // The structured result is the same page: its text and summary as the content blocks give them.
      const page = pageOf(result);
      expect(result.structuredContent).toMatchObject({ text: page.text, summary: page.summary });
      return page;
    };
    const emit = async (key: string, text: string) => {
      texts.set(key, text);
      return uriOf(await customPeer.callTool('emit', { key }));
    };

    beforeAll(async () => {
      peer = await connect(sdk, fn.url);
      customPeer = await connect(sdk, custom.url);
    });
    afterAll(async () => {
      await peer?.close();
      await customPeer?.close();
    });

    it('lists read_output as read-only and idempotent, with an output schema', async () => {
      const { tools } = await peer.listTools();
      const tool = tools.find((t: any) => t.name === 'read_output');
      expect(tool).toMatchObject({
        annotations: { readOnlyHint: true, idempotentHint: true },
        inputSchema: { required: ['uri'] },
        outputSchema: { required: ['uri', 'mode', 'size', 'summary', 'text'] },
      });
      expect(tool.description).toMatch(/a page at a time/);
      // Hosts send every definition with every model call: read_output stays small.
      expect(Buffer.byteLength(JSON.stringify(tool))).toBeLessThanOrEqual(1500);
    });

    it('follows a generate_report link: the notice names read_output, then pages, searches and CSV rows read it', async () => {
      const expected = await reportText({ rows: 3000 });
      const result = await peer.callTool('generate_report', { rows: 3000 });
      expect(result.content[0].text).toMatch(/Call read_output with that uri to read it a page at a time/);
      const uri = uriOf(result);
      const first = await read(peer, uri, {});
      expect(first).toMatchObject({
        offset: 0,
        size: Buffer.byteLength(expected),
        lines: 3001,
        mode: 'bytes',
      });
      expect(expected.startsWith(first.text)).toBe(true);
      const lines = expected.split('\n');
      const west = lines.map((l, i) => [i + 1, l] as const).filter(([, l]) => l.includes('west'));
      const found = await read(peer, uri, { search: 'WEST', ignoreCase: true, count: 5 });
      expect(found.search).toMatchObject({ matchCount: west.length, complete: true });
      expect(found.search.matches).toEqual(west.slice(0, 5).map(([line]) => line));
      for (const [line, text] of west.slice(0, 5)) expect(found.text).toContain(`\n${line}: ${text}\n`);
      const rows = await read(peer, uri, { row: 2999, count: 10 });
      expect(rows.text).toBe(`${lines[0]}\n${lines[2999]}\n${lines[3000]}\n`);
      expect(rows.csv).toMatchObject({ row: 2999, rows: 2, totalRows: 3000 });
    });

    it('paging through every page rebuilds text and multi-part outputs byte for byte (random sizes and page lengths)', async () => {
      const int = random(SEED + sdk.length);
      for (let c = 0; c < 3; c++) {
        const source = sample(SEED + c, 33_000 + int(150_000));
        const uri = await emit(`${sdk}-page-${c}`, source);
        const count = 4000 + int(12_000);
        let offset: number | undefined = 0;
        const pages: Buffer[] = [];
        while (offset !== undefined) {
          const page = await read(customPeer, uri, { offset, count });
          pages.push(Buffer.from(page.text, 'utf8'));
          offset = page.nextOffset;
        }
        expect(Buffer.concat(pages).equals(Buffer.from(source)), `seed ${SEED} case ${c}`).toBe(true);
      }
    });

    it('line ranges and searches agree with a reference computed here, across parts', async () => {
      const source = sample(SEED + 50, 150_000);
      const lines = source.split('\n');
      const uri = await emit(`${sdk}-lines`, source);
      for (const [line, count] of [
        [1, 10],
        [Math.floor(lines.length / 2), 25],
        [lines.length - 3, 10],
      ] as const) {
        const page = await read(customPeer, uri, { line, count });
        expect(page.text.replace(/\n$/, '')).toBe(lines.slice(line - 1, page.lastLine).join('\n'));
      }
      const expected = lines.flatMap((l, i) => (l.includes('😀"') ? [i + 1] : []));
      const found: number[] = [];
      let line: number | undefined = 1;
      while (line !== undefined) {
        const page = await read(customPeer, uri, { search: '😀"', line, count: 50, context: 0 });
        found.push(...page.search.matches);
        line = page.nextLine;
      }
      expect(found).toEqual(expected);
    });

    it('JSON Pointer selections and CSV rows agree with the parsed source', async () => {
      const doc = {
        users: Array.from({ length: 1000 }, (_, i) => ({
          id: i,
          name: `user ${i}`,
          'a/b': { 'c~d': i * 2 },
        })),
      };
      const json = await emit(`${sdk}-json`, JSON.stringify(doc));
      expect(JSON.parse((await read(customPeer, json, { pointer: '/users/123' })).text)).toEqual(
        doc.users[123],
      );
      expect(JSON.parse((await read(customPeer, json, { pointer: '/users/7/a~1b/c~0d' })).text)).toBe(14);
      const page = await read(customPeer, json, { pointer: '/users', item: 990, count: 50 });
      expect(JSON.parse(page.text)).toEqual(doc.users.slice(990));
      const records = Array.from({ length: 2000 }, (_, i) => [String(i), `note, "${i}"\nsecond line`]);
      const csv = `id,note\n${records.map(([a, b]) => `${a},"${b!.replaceAll('"', '""')}"\n`).join('')}`;
      const uri = await emit(`${sdk}-csv`, csv);
      const rows = await read(customPeer, uri, { row: 1500, count: 3 });
      expect(rows.text).toBe(
        `id,note\n${records
          .slice(1499, 1502)
          .map(([a, b]) => `${a},"${b!.replaceAll('"', '""')}"\n`)
          .join('')}`,
      );
      expect(rows.csv).toMatchObject({ totalRows: 2000, nextRow: 1503 });
    });
  },
);

describe('a 2025-03-26 client, which sees links as text', () => {
  it('finds the URI in the text and reads the output with read_output', async () => {
    // No MCP-Protocol-Version header: the server takes the request as 2025-03-26.
    const rpc = async (method: string, params: unknown): Promise<any> => {
      const res = await fetch(fn.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return ((await res.json()) as { result: unknown }).result;
    };
    const result = await rpc('tools/call', { name: 'generate_report', arguments: { rows: 2000 } });
    expect(result.content.some((b: any) => b.type === 'resource_link')).toBe(false);
    const uri = /mcp-output:\/\/outputs\/[0-9a-f]{32}/.exec(JSON.stringify(result.content))![0];
    const page = await rpc('tools/call', { name: 'read_output', arguments: { uri, line: 2, count: 1 } });
    expect(page.isError).toBeUndefined();
    expect(pageOf(page).text).toBe(`${(await reportText({ rows: 2000 })).split('\n')[1]}\n`);
  });
});
