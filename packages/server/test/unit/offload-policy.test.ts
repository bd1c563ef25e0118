import { describe, expect, it } from 'vitest';
import { planExplicitStore, planOffload, type OffloadLimits } from '../../src/outputs/policy.ts';
import type { PlannedPayload } from '../../src/outputs/payloads.ts';
import type { StoredPayload } from '../../src/outputs/summary.ts';
import type { CallToolResult, ContentBlock } from '../../src/protocol/types.ts';

const limits: OffloadLimits = {
  thresholdBytes: 100,
  maxInlineBytes: 300,
  partBudgetBytes: 1000,
  maxParts: 5,
};
const big = (n = 150, ch = 'x') => ch.repeat(n);
const b64 = (n: number) => Buffer.alloc(n, 7).toString('base64');
const ID = 'ab'.repeat(16);

/** Pretends every planned payload was stored, the way the offloader describes it. */
function stored(payloads: readonly PlannedPayload[]): StoredPayload[] {
  return payloads.map(({ parts, ...p }, n) => ({
    ...p,
    sha256: 'f'.repeat(64),
    expiresAt: Date.UTC(2030, 0, 1),
    parts: parts.map((bytes, i) => ({
      uri: `mcp-output://outputs/${ID}${parts.length > 1 ? `/part-${i + 1}` : ''}#${n}`,
      size: bytes.byteLength,
      sha256: 'e'.repeat(64),
      id: ID,
    })),
  }));
}

function run(result: CallToolResult, structuredContentRequired = false) {
  const plan = planOffload(result, limits, { tool: 't', structuredContentRequired });
  if (plan.action !== 'store') return { plan, payloads: [] as PlannedPayload[], out: undefined };
  return { plan, payloads: plan.payloads, out: plan.assemble(stored(plan.payloads)) };
}

const types = (r: CallToolResult | undefined) => r?.content.map((b) => b.type);

describe('offload policy: which blocks are stored', () => {
  it.each<[string, ContentBlock, boolean]>([
    ['a text block at the threshold stays', { type: 'text', text: big(100) }, false],
    ['a text block above the threshold is stored', { type: 'text', text: big(101) }, true],
    ['multi-byte text is measured in bytes', { type: 'text', text: big(51, 'é') }, true],
    ['an image within the threshold stays', { type: 'image', data: b64(75), mimeType: 'image/png' }, false],
    ['an image above the threshold is stored', { type: 'image', data: b64(76), mimeType: 'image/png' }, true],
    ['audio above the threshold is stored', { type: 'audio', data: b64(300), mimeType: 'audio/wav' }, true],
    [
      'an embedded text resource above the threshold is stored',
      { type: 'resource', resource: { uri: 'docs://x', mimeType: 'text/csv', text: big() } },
      true,
    ],
    [
      'an embedded blob resource above the threshold is stored',
      { type: 'resource', resource: { uri: 'docs://y', blob: b64(300) } },
      true,
    ],
    [
      'a resource link is never stored, whatever its description',
      { type: 'resource_link', uri: 'docs://z', name: 'z', description: big(500) },
      false,
    ],
  ])('%s', (_what, block, storedExpected) => {
    const { plan } = run({ content: [block] });
    expect(plan.action).toBe(storedExpected ? 'store' : 'keep');
  });

  it('replaces a stored block in place by a notice and its link, keeping the other blocks', () => {
    const { out } = run({
      content: [
        { type: 'text', text: 'before' },
        { type: 'text', text: big() },
        { type: 'text', text: 'after' },
      ],
    });
    expect(types(out)).toEqual(['text', 'text', 'resource_link', 'text']);
    expect(out!.content[0]).toEqual({ type: 'text', text: 'before' });
    expect(out!.content[3]).toEqual({ type: 'text', text: 'after' });
  });

  it('stores text as UTF-8 with mimeType text/plain, and binary as raw bytes with its mimeType', () => {
    const { payloads } = run({
      content: [
        { type: 'text', text: big(120, 'é') },
        { type: 'image', data: b64(200), mimeType: 'image/png' },
      ],
    });
    expect(payloads.map((p) => [p.encoding, p.mimeType, p.size])).toEqual([
      ['utf-8', 'text/plain', 240],
      ['binary', 'image/png', 200],
    ]);
    expect(Buffer.concat(payloads[1]!.parts)).toEqual(Buffer.alloc(200, 7));
  });

  it('keeps the embedded resource mimeType and names its URI', () => {
    const { payloads, out } = run({
      content: [{ type: 'resource', resource: { uri: 'docs://x', mimeType: 'text/csv', text: big() } }],
    });
    expect(payloads[0]).toMatchObject({ mimeType: 'text/csv', originUri: 'docs://x', source: 'resource' });
    expect((out!.content[0] as { text: string }).text).toContain('embedded resource docs://x');
  });

  it('carries the block annotations over to the link', () => {
    const annotations = { audience: ['user' as const], priority: 0.4 };
    const { out } = run({ content: [{ type: 'image', data: b64(300), mimeType: 'image/png', annotations }] });
    expect(out!.content[1]).toMatchObject({ type: 'resource_link', annotations });
  });

  it('stores the largest remaining blocks when small blocks together exceed the inline budget', () => {
    const content: ContentBlock[] = [80, 90, 70, 95].map((n) => ({ type: 'text', text: big(n) }));
    const { out, payloads } = run({ content });
    // Serialized costs are size + 24 bytes: 104, 114, 94, 119 = 431 > 300; storing 95 and 90 leaves 198.
    expect(payloads.map((p) => p.size)).toEqual([90, 95]);
    expect(types(out)).toEqual(['text', 'text', 'resource_link', 'text', 'text', 'resource_link']);
  });

  it('splits a payload larger than one part into ordered parts, each linked', () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
    const { payloads, out } = run({ content: [{ type: 'text', text }] });
    expect(payloads[0]!.parts.length).toBeGreaterThan(1);
    expect(Buffer.concat(payloads[0]!.parts).toString('utf8')).toBe(text);
    const links = out!.content.filter((b) => b.type === 'resource_link');
    expect(links).toHaveLength(payloads[0]!.parts.length);
    expect(links.map((l) => l.title)).toEqual(
      links.map((_, i) => `Text from t, part ${i + 1} of ${links.length}`),
    );
    expect((out!.content[0] as { text: string }).text).toMatch(/in \d parts, linked below in order/);
  });

  it('refuses an output that would need more parts than allowed', () => {
    const { plan } = run({ content: [{ type: 'text', text: big(6000) }] });
    expect(plan).toMatchObject({ action: 'refuse', message: expect.stringMatching(/at most 5 are allowed/) });
  });
});

describe('offload policy: structured results', () => {
  const structuredContent = { rows: Array.from({ length: 20 }, (_, i) => ({ i })) };
  const json = JSON.stringify(structuredContent);
  const result = (): CallToolResult => ({ content: [{ type: 'text', text: json }], structuredContent });

  it('without an outputSchema, removes large structuredContent and stores its JSON once', () => {
    const { payloads, out } = run(result());
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatchObject({ source: 'structured', mimeType: 'application/json' });
    expect(Buffer.concat(payloads[0]!.parts).toString('utf8')).toBe(json);
    expect(out).not.toHaveProperty('structuredContent');
    expect(types(out)).toEqual(['text', 'resource_link']);
    expect((out!.content[0] as { text: string }).text).toContain('JSON object with 1 key (rows)');
  });

  it('without an outputSchema and no text copy, appends the link to the stored JSON', () => {
    const { out } = run({ content: [], structuredContent });
    expect(types(out)).toEqual(['text', 'resource_link']);
    expect(out).not.toHaveProperty('structuredContent');
  });

  it('with an outputSchema, keeps structuredContent (schema-valid) and stores only its text copy', () => {
    const { payloads, out } = run(result(), true);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]!.mimeType).toBe('application/json');
    expect(out!.structuredContent).toEqual(structuredContent);
    expect(types(out)).toEqual(['text', 'resource_link']);
  });

  it('with an outputSchema, refuses structuredContent too large for any response, with an honest message', () => {
    const huge = { blob: 'x'.repeat(1024 * 1024 + 1) };
    const { plan } = run({ content: [], structuredContent: huge }, true);
    expect(plan).toMatchObject({
      action: 'refuse',
      message: expect.stringMatching(/outputSchema requires it/),
    });
  });

  it('leaves small structured results alone', () => {
    const small = { a: 1 };
    expect(run({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: small }).plan.action).toBe(
      'keep',
    );
  });
});

describe('offload policy: what the model reads', () => {
  it('the notice says what was stored, how big, until when, how to read it, and previews the start', () => {
    const text = ['id,name', ...Array.from({ length: 30 }, (_, i) => `${i},row${i}`)].join('\n');
    const { out } = run({ content: [{ type: 'text', text }] });
    const notice = (out!.content[0] as { text: string }).text;
    expect(notice).toContain('The text output of t (text/plain, ');
    expect(notice).toContain('31 lines');
    expect(notice).toContain('resources/read');
    expect(notice).toContain('2030-01-01T00:00:00.000Z');
    expect(notice).toContain('Preview:\nid,name\n0,row0');
    expect(notice.length).toBeLessThan(1000);
  });

  it('the link has uri, name, title, mimeType, raw size, a description with the expiry, and _meta facts', () => {
    const { out } = run({ content: [{ type: 'image', data: b64(300), mimeType: 'image/png' }] });
    const link = out!.content[1]!;
    expect(link).toMatchObject({
      type: 'resource_link',
      uri: expect.stringMatching(/^mcp-output:\/\/outputs\//),
      name: `t-${ID.slice(0, 8)}.png`,
      title: 'Image from t',
      mimeType: 'image/png',
      size: 300,
      description: expect.stringContaining('stored until 2030-01-01T00:00:00.000Z'),
      _meta: { 'mcp-lambda-template/output': { expiresAt: '2030-01-01T00:00:00.000Z', size: 300 } },
    });
  });

  it('names the pixel size of a PNG', () => {
    const png = Buffer.alloc(200);
    png.writeUInt32BE(0x89504e47, 0);
    png.write('IHDR', 12, 'ascii');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    const { out } = run({
      content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }],
    });
    expect((out!.content[0] as { text: string }).text).toContain('640×480 pixels');
  });
});

describe('explicit stores', () => {
  it('accepts text and bytes that fit one resource', () => {
    const text = planExplicitStore({ data: 'hello', mimeType: 'text/markdown' }, limits, 't');
    expect(text).toMatchObject({ payload: { encoding: 'utf-8', mimeType: 'text/markdown', size: 5 } });
    const bytes = planExplicitStore(
      { data: new Uint8Array([1, 2, 3]), mimeType: 'application/pdf' },
      limits,
      't',
    );
    expect(bytes).toMatchObject({ payload: { encoding: 'binary', size: 3 } });
  });

  it.each([
    ['no mimeType', { data: 'x', mimeType: '' }, /needs a mimeType/],
    [
      'data of another type',
      { data: 42 as unknown as string, mimeType: 'text/plain' },
      /string or a Uint8Array/,
    ],
    ['more than one part', { data: big(2000), mimeType: 'text/plain' }, /Return it as a content block/],
  ])('refuses %s with advice', (_what, request, message) => {
    expect(planExplicitStore(request, limits, 't')).toMatchObject({ refuse: expect.stringMatching(message) });
  });
});
