import { expect } from 'vitest';
import { tools } from '../../src/tools/index.ts';

/**
 * One call of every example tool in src/tools and what a real client must get back from it. Shared by
 * the SDK 1.x and SDK 2.x interop tests so both clients are held to the same results in every era. Each row names
 * its tool: a tool added to the template changes nothing here, a removed example tool takes its rows with it.
 */

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function expectPng(base64: string, width?: number, height?: number): void {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.subarray(0, 8)).toEqual(PNG_MAGIC);
  if (width !== undefined) expect(bytes.readUInt32BE(16)).toBe(width);
  if (height !== undefined) expect(bytes.readUInt32BE(20)).toBe(height);
}

/** The tools the MCP function serves, as the template lists them (src/tools/index.ts), in that order. */
export const TEMPLATE_TOOL_NAMES = tools.map((tool) => tool.name);

/** [description, tool, arguments, what the result must be]. */
export const exampleToolCalls: [string, string, Record<string, unknown>, (result: any) => void][] = [
  [
    'ping answers pong',
    'ping',
    {},
    (r) => {
      expect(r.content).toEqual([{ type: 'text', text: 'pong' }]);
      expect(r.isError).toBeFalsy();
    },
  ],
  [
    'safe_divide divides',
    'safe_divide',
    { a: 6, b: 3 },
    (r) => {
      expect(r.content).toEqual([{ type: 'text', text: '2' }]);
      expect(r.isError).toBeFalsy();
    },
  ],
  [
    'safe_divide by zero is an isError result with advice',
    'safe_divide',
    { a: 1, b: 0 },
    (r) => {
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/divide by zero.*non-zero/);
    },
  ],
  [
    'safe_divide with a quotient too large to represent is an isError result, not "Infinity"',
    'safe_divide',
    { a: 1e308, b: 1e-308 },
    (r) => {
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/too large to represent/);
    },
  ],
  [
    'safe_divide with arguments outside its schema is an isError result naming the field',
    'safe_divide',
    { a: 1 },
    (r) => {
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/"b"/);
    },
  ],
  [
    'text_stats returns structuredContent matching its outputSchema, serialized in a text block too',
    'text_stats',
    { text: 'the cat and the hat', top: 2 },
    (r) => {
      const expected = {
        characters: 19,
        words: 5,
        lines: 1,
        topWords: [
          { word: 'the', count: 2 },
          { word: 'and', count: 1 },
        ],
      };
      expect(r.structuredContent).toEqual(expected);
      expect(JSON.parse(r.content[0].text)).toEqual(expected);
    },
  ],
  [
    'content_gallery returns one block of each of the five types',
    'content_gallery',
    {},
    (r) => {
      expect(r.content.map((b: { type: string }) => b.type)).toEqual([
        'text',
        'image',
        'audio',
        'resource_link',
        'resource',
      ]);
      const [text, image, audio, link, embedded] = r.content;
      expect(text.annotations).toEqual({ audience: ['user', 'assistant'], priority: 1 });
      expect(image.mimeType).toBe('image/png');
      expectPng(image.data);
      expect(audio.mimeType).toBe('audio/wav');
      expect(Buffer.from(audio.data, 'base64').subarray(0, 4).toString('ascii')).toBe('RIFF');
      expect(link).toMatchObject({ uri: 'docs://server/about', name: 'about', mimeType: 'text/markdown' });
      expect(link.size).toBeGreaterThan(0);
      expect(embedded.resource).toMatchObject({ uri: 'docs://server/about', mimeType: 'text/markdown' });
      expect(embedded.annotations.lastModified).toBe('2026-11-22T00:00:00Z');
    },
  ],
  [
    'generate_report returns a small CSV inline',
    'generate_report',
    { rows: 5, seed: 7 },
    (r) => {
      expect(r.isError).toBeFalsy();
      const lines = r.content[0].text.trimEnd().split('\n');
      expect(lines).toHaveLength(6);
      expect(lines[0]).toBe('id,date,region,units,unit_price,total');
      expect(lines[5]).toMatch(/^5,2026-11-06,south,\d+,\d+\.\d\d,\d+\.\d\d$/);
    },
  ],
  [
    'render_chart returns a PNG image of the requested size',
    'render_chart',
    { values: [1, 3, 2], width: 48, height: 32 },
    (r) => {
      expect(r.content).toHaveLength(1);
      expect(r.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      expectPng(r.content[0].data, 48, 32);
    },
  ],
];

/**
 * Issue 31: a result with `structuredContent` carries in it everything its text blocks say, so a client that shows
 * its model only the structured result loses nothing. A text block is the structured result serialized, or text
 * found in it.
 */
export function expectStructuredWhole(result: any): void {
  if (result.structuredContent === undefined) return;
  const structured = JSON.stringify(result.structuredContent);
  for (const block of result.content.filter((b: any) => b.type === 'text')) {
    const serialized = (() => {
      try {
        return JSON.stringify(JSON.parse(block.text)) === structured;
      } catch {
        return false;
      }
    })();
    if (!serialized) expect(structured).toContain(JSON.stringify(block.text).slice(1, -1));
  }
}
