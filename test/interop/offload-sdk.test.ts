import { createHash, randomBytes } from 'node:crypto';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderChart } from '../../src/tools/render-chart.ts';
import { defineTool } from '@mcp-lambda/server';
import { createOffloader, storedOutputs } from '@mcp-lambda/server/lambda';
import { serveMcpFunction } from '../support/local.ts';
import { serveServer, type RunningServer, startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';
import { reportText } from '../support/report.ts';

// The official SDK clients (1.x in the handshake era, 2.x in 2026-07-28) against local servers over HTTP, with
// outputs stored in a real local S3-compatible server: what a tool produced is what the client reads back.

const MiB = 1024 * 1024;
const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const toolCtx = { signal: new AbortController().signal, checkpoint: async () => undefined } as never;

/** 20 MiB of CSV-like text full of characters JSON escapes, so parts are cut by their escaped size. */
function bulkText(): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 20 * MiB; i++) {
    const line = `${i},"quoted \\ value",tab\there,é€😀\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return lines.join('');
}
const BULK_TEXT = bulkText();
const BULK_BYTES = randomBytes(20 * MiB);

let s3: TestS3;
let fn: RunningServer;
let bulk: RunningServer;

beforeAll(async () => {
  s3 = await startTestS3();
  fn = await serveMcpFunction(s3.env());
  const storage = s3.storage();
  bulk = await serveServer({
    info: { name: 'bulk', version: '1.0.0' },
    tools: [
      defineTool({ name: 'bulk_text', description: '20 MiB of text', handler: () => BULK_TEXT }),
      defineTool({
        name: 'bulk_binary',
        description: '20 MiB of bytes',
        handler: () => ({
          type: 'resource',
          resource: {
            uri: 'file:///bulk.bin',
            mimeType: 'application/octet-stream',
            blob: BULK_BYTES.toString('base64'),
          },
        }),
      }),
    ],
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 32 * 1024, ttlDays: 1 }),
  });
}, 60_000);

afterAll(async () => {
  await fn?.close();
  await bulk?.close();
  await s3?.close();
});

/** The two official clients behind one small interface. */
interface Peer {
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  readResource(uri: string): Promise<any>;
  close(): Promise<void>;
}

async function connect(sdk: 1 | 2, url: string): Promise<Peer> {
  if (sdk === 1) {
    const client = new Client1({ name: 'offload-sdk1', version: '1.0.0' });
    await client.connect(new Transport1(new URL(url)));
    return {
      callTool: (name, args) => client.callTool({ name, arguments: args }),
      readResource: (uri) => client.readResource({ uri }),
      close: () => client.close(),
    };
  }
  const client = new Client2(
    { name: 'offload-sdk2', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new Transport2(new URL(url)));
  return {
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    readResource: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}

/** Reads every linked resource in order and joins what came back, as bytes. */
async function readLinked(peer: Peer, result: any): Promise<{ bytes: Buffer; links: any[] }> {
  const links = result.content.filter((b: any) => b.type === 'resource_link');
  const chunks: Buffer[] = [];
  for (const link of links) {
    const { contents } = await peer.readResource(link.uri);
    expect(contents).toHaveLength(1);
    expect(contents[0].uri).toBe(link.uri);
    expect(contents[0].mimeType).toBe(link.mimeType);
    const chunk =
      contents[0].text !== undefined
        ? Buffer.from(contents[0].text, 'utf8')
        : Buffer.from(contents[0].blob, 'base64');
    expect(chunk.length).toBe(link.size);
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), links };
}

describe.each([
  [1, 'SDK 1.x client, handshake era'],
  [2, 'SDK 2.x client, 2026-07-28'],
] as const)('offloaded outputs read back by the official SDK %i (%s)', (sdk, _label) => {
  let peer: Peer;
  let bulkPeer: Peer;

  beforeAll(async () => {
    peer = await connect(sdk, fn.url);
    bulkPeer = await connect(sdk, bulk.url);
  });

  afterAll(async () => {
    await peer?.close();
    await bulkPeer?.close();
  });

  it('a 1 MB text output arrives as a resource_link whose resources/read has the same SHA-256', async () => {
    const expected = await reportText({ rows: 27_000 });
    expect(Buffer.byteLength(expected)).toBeGreaterThan(1_000_000);
    const result = await peer.callTool('generate_report', { rows: 27_000 });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result).length).toBeLessThan(5_000);
    const { bytes, links } = await readLinked(peer, result);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({
      uri: expect.stringMatching(/^mcp-output:\/\/outputs\/[0-9a-f]{32}$/),
      mimeType: 'text/csv',
    });
    expect(sha(bytes)).toBe(sha(expected));
  });

  it('a generated PNG arrives as a resource_link and reads back as a blob with the same SHA-256', async () => {
    const args = { values: [3, 1, 4, 1, 5, 9, 2, 6], width: 2048, height: 2048 };
    const png = Buffer.from(((await renderChart.handler(args, toolCtx)) as { data: string }).data, 'base64');
    const result = await peer.callTool('render_chart', args);
    const { bytes, links } = await readLinked(peer, result);
    expect(links).toEqual([expect.objectContaining({ mimeType: 'image/png', size: png.length })]);
    expect(sha(bytes)).toBe(sha(png));
    expect(result.content[0].text).toContain('2,048×2,048 pixels');
  });

  it('a 20 MiB text output arrives as ordered parts that join to the same SHA-256', async () => {
    const result = await bulkPeer.callTool('bulk_text', {});
    const { bytes, links } = await readLinked(bulkPeer, result);
    expect(links.length).toBeGreaterThan(4);
    expect(links.map((l: any) => l.uri.split('/').at(-1))).toEqual(
      links.map((_: any, i: number) => `part-${i + 1}`),
    );
    expect(sha(bytes)).toBe(sha(BULK_TEXT));
  });

  it('a 20 MiB binary output arrives as ordered parts that join to the same SHA-256', async () => {
    const result = await bulkPeer.callTool('bulk_binary', {});
    const { bytes, links } = await readLinked(bulkPeer, result);
    expect(links).toHaveLength(Math.ceil((20 * MiB) / 3_932_160));
    expect(sha(bytes)).toBe(sha(BULK_BYTES));
    expect(links[0]._meta['mcp-lambda-template/output'].whole).toEqual({
      size: 20 * MiB,
      sha256: sha(BULK_BYTES),
    });
  });
});
