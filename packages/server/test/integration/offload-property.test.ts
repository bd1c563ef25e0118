import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOffloader } from '../../src/outputs/offloader.ts';
import { storedOutputs } from '../../src/outputs/reader.ts';
import { createMcpServer, type McpServer } from '../../src/server.ts';
import { defineTool } from '../../src/tools/define.ts';
import type { CallToolResult } from '../../src/protocol/types.ts';
import { statelessHeaders, statelessMeta, send, startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';

// Property: whatever a tool returns (any kind, any size from 0 B to 8 MB), what the client can reach through MCP
// alone (the inline block, or the linked objects read back and joined in order) is exactly the original.

const OUTPUTS = 200;
const MAX_BYTES = 8 * 1024 * 1024;
const KINDS = [
  'ascii',
  'escapes',
  'unicode',
  'image',
  'audio',
  'resource-text',
  'resource-blob',
  'json',
] as const;
type Kind = (typeof KINDS)[number];

/** Printable ASCII plus what JSON must escape: quotes, backslashes, newlines, tabs, other control characters. */
const ESCAPES = Buffer.from(`abc xyz 0123456789 {"quoted"} back\\slash\n\t\r\u0001\u001f\u007f`, 'latin1');
/** UTF-16 code units drawn in pairs: BMP letters, 2- and 3-byte characters, and surrogate pairs (emoji). */
const UNICODE_PAIRS = ['ab', 'é€', 'ñ\n', '漢字', '😀', '🎉', ' "', 'Ωz'].map((p) =>
  Buffer.from(p, 'utf16le'),
);

function text(kind: 'ascii' | 'escapes' | 'unicode', size: number): string {
  if (kind === 'unicode') {
    const picks = randomBytes(Math.ceil(size / 5));
    const buf = Buffer.alloc(picks.length * 4);
    for (let i = 0; i < picks.length; i++) UNICODE_PAIRS[picks[i]! & 7]!.copy(buf, i * 4);
    return buf.toString('utf16le');
  }
  const bytes = randomBytes(size);
  if (kind === 'ascii') for (let i = 0; i < size; i++) bytes[i] = 32 + (bytes[i]! % 95);
  else for (let i = 0; i < size; i++) bytes[i] = ESCAPES[bytes[i]! % ESCAPES.length]!;
  return bytes.toString('latin1');
}

interface Case {
  kind: Kind;
  size: number;
  result: CallToolResult;
  /** The bytes the client must be able to reach. */
  expected: Buffer;
}

function makeCase(kind: Kind, size: number): Case {
  switch (kind) {
    case 'ascii':
    case 'escapes':
    case 'unicode': {
      const t = text(kind, size);
      return {
        kind,
        size,
        result: { content: [{ type: 'text', text: t }] },
        expected: Buffer.from(t, 'utf8'),
      };
    }
    case 'image':
    case 'audio': {
      const bytes = randomBytes(size);
      const mimeType = kind === 'image' ? 'image/png' : 'audio/wav';
      return {
        kind,
        size,
        result: { content: [{ type: kind, data: bytes.toString('base64'), mimeType }] },
        expected: bytes,
      };
    }
    case 'resource-text': {
      const t = text('escapes', size);
      return {
        kind,
        size,
        result: {
          content: [
            { type: 'resource', resource: { uri: 'file:///report.csv', mimeType: 'text/csv', text: t } },
          ],
        },
        expected: Buffer.from(t, 'utf8'),
      };
    }
    case 'resource-blob': {
      const bytes = randomBytes(size);
      return {
        kind,
        size,
        result: {
          content: [
            { type: 'resource', resource: { uri: 'file:///data.bin', blob: bytes.toString('base64') } },
          ],
        },
        expected: bytes,
      };
    }
    case 'json': {
      const rows: string[] = [];
      for (let n = 0; n < size; n += 1024) rows.push(text('escapes', Math.min(1024, size - n)));
      const value = { rows };
      const json = JSON.stringify(value);
      return {
        kind,
        size,
        result: { content: [{ type: 'text', text: json }], structuredContent: value },
        expected: Buffer.from(json, 'utf8'),
      };
    }
  }
}

/** A small seeded generator, so a failing sample can be named by its seed. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

const SEED = Number(process.env.PROPERTY_SEED ?? Date.now()) >>> 0;

/** Edge cases first, then random kinds with sizes log-uniform from 1 byte to 8 MiB (small and huge both common). */
function samples(): [Kind, number][] {
  const edges: [Kind, number][] = [
    ['ascii', 0],
    ['image', 0],
    ['json', 0],
    ['escapes', 32 * 1024],
    ['escapes', 32 * 1024 + 1],
    ['image', 3_932_160],
    ['audio', 3_932_161],
    ['escapes', MAX_BYTES],
    ['unicode', MAX_BYTES],
    ['resource-blob', MAX_BYTES],
  ];
  const random = generator(SEED);
  const rest = Array.from({ length: OUTPUTS - edges.length }, (): [Kind, number] => [
    KINDS[Math.floor(random() * KINDS.length)]!,
    Math.floor(Math.exp(random() * Math.log(MAX_BYTES))),
  ]);
  return [...edges, ...rest];
}

let s3: TestS3;
let server: McpServer;
let current: Case | undefined;
let id = 0;

beforeAll(async () => {
  s3 = await startTestS3();
  const storage = s3.storage();
  server = createMcpServer({
    info: { name: 'offload-property', version: '1.0.0' },
    tools: [
      defineTool({
        name: 'emit',
        description: 'Returns the prepared output',
        handler: () => current!.result,
      }),
    ],
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 32 * 1024, ttlDays: 1 }),
  });
});

afterAll(async () => {
  await s3?.close();
});

async function rpc(method: string, params: Record<string, unknown>, stateless: boolean, name: string) {
  const res = await send(server, {
    ...(stateless ? { headers: statelessHeaders(method, name) } : {}),
    body: {
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: { ...params, ...(stateless ? { _meta: statelessMeta() } : {}) },
    },
  });
  return res.json;
}

/** What the client reaches: every link read and joined in order, else the inline block. */
async function reached(result: any, kind: Kind, stateless: boolean): Promise<Buffer> {
  const links = result.content.filter((b: any) => b.type === 'resource_link');
  if (links.length === 0) {
    if (kind === 'json') return Buffer.from(JSON.stringify(result.structuredContent), 'utf8');
    const block = result.content[0];
    if (block.type === 'text') return Buffer.from(block.text, 'utf8');
    if (block.type === 'resource')
      return block.resource.text !== undefined
        ? Buffer.from(block.resource.text, 'utf8')
        : Buffer.from(block.resource.blob, 'base64');
    return Buffer.from(block.data, 'base64');
  }
  const chunks: Buffer[] = [];
  for (const link of links) {
    const answer = await rpc('resources/read', { uri: link.uri }, stateless, link.uri);
    const c = answer.result.contents[0];
    if (c.text !== undefined) chunks.push(Buffer.from(c.text, 'utf8'));
    else chunks.push(Buffer.from(c.blob, 'base64'));
  }
  return Buffer.concat(chunks);
}

describe('offload property', () => {
  it(
    `${OUTPUTS} outputs of random kinds and sizes from 0 B to 8 MiB all read back without a difference`,
    { timeout: 120_000 },
    async () => {
      const differences: string[] = [];
      let stored = 0;
      let parts = 0;
      const all = samples();
      for (let i = 0; i < all.length; i++) {
        const [kind, size] = all[i]!;
        current = makeCase(kind, size);
        const stateless = i % 2 === 1;
        const answer = await rpc('tools/call', { name: 'emit' }, stateless, 'emit');
        const result = answer.result;
        if (!result || result.isError) {
          differences.push(`#${i} ${kind} ${size} B: ${JSON.stringify(answer).slice(0, 200)}`);
          continue;
        }
        const links = result.content.filter((b: any) => b.type === 'resource_link').length;
        if (links) stored++;
        parts += links;
        const got = await reached(result, kind, stateless);
        if (!got.equals(current.expected))
          differences.push(`#${i} ${kind} ${size} B: ${got.length} B read back`);
      }
      expect(differences, `sizes from seed ${SEED}`).toEqual([]);
      // The sample really exercised both paths and multi-part outputs. About 35% of log-uniform sizes pass the
      // 32 KiB threshold (about 73 of 200, σ ≈ 6.5): a fifth is far below any seed's count, a third was not.
      expect(stored).toBeGreaterThan(OUTPUTS / 5);
      expect(parts).toBeGreaterThan(stored);
    },
  );
});
