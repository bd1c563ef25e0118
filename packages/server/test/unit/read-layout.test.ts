import { describe, expect, it } from 'vitest';
import {
  countNewlines,
  layoutMetadata,
  partAt,
  partFacts,
  readLayout,
  scanStartForLine,
} from '../../src/outputs/layout.ts';
import { lineChunks, MAX_PIECE_BYTES, type LineChunk } from '../../src/outputs/paging/line-chunks.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const SHA = 'a'.repeat(64);

describe('the layout a stored output carries', () => {
  const parts = ['one\ntwo\nth', 'ree\n', 'four\nfive'].map(bytes);
  const meta = layoutMetadata(parts.map(partFacts), 'utf-8', SHA);
  const layout = readLayout(meta, { size: parts[0]!.byteLength, sha256: 'b'.repeat(64) }, true)!;

  it('counts lines as an editor does: a last line without a newline counts', () => {
    expect(meta.lines).toBe('5');
    expect(layoutMetadata([partFacts(bytes('a\nb\n'))], 'utf-8', SHA).lines).toBe('2');
    expect(layoutMetadata([partFacts(bytes(''))], 'utf-8', SHA).lines).toBe('0');
    expect(countNewlines(bytes('\n\n\n'))).toBe(3);
  });

  it('reads back the part table: starts, sizes and newlines before each part', () => {
    expect(layout).toEqual({
      size: 23,
      sha256: SHA,
      lines: 5,
      parts: [
        { start: 0, size: 10, newlinesBefore: 0 },
        { start: 10, size: 4, newlinesBefore: 2 },
        { start: 14, size: 9, newlinesBefore: 3 },
      ],
    });
  });

  it('finds the part holding a byte offset', () => {
    expect([0, 9, 10, 13, 14, 22, 23].map((o) => partAt(layout, o))).toEqual([0, 0, 1, 1, 2, 2, 2]);
  });

  it('starts a scan for a line in the part holding the newline before it', () => {
    expect([1, 2, 3, 4, 5].map((l) => scanStartForLine(layout, l).part)).toEqual([0, 0, 0, 1, 2]);
  });

  it('refuses a part table that does not add up, and leaves binary outputs without lines', () => {
    expect(readLayout({ ...meta, 'whole-size': '25' }, { size: 10, sha256: SHA }, true)).toBeUndefined();
    expect(readLayout({ ...meta, 'part-sizes': '10,x' }, { size: 10, sha256: SHA }, true)).toBeUndefined();
    expect(readLayout(meta, { size: 11, sha256: SHA }, true)).toBeUndefined();
    expect(readLayout({}, { size: 10, sha256: SHA }, true)).toBeUndefined();
    expect(layoutMetadata(parts.map(partFacts), 'binary', SHA)).not.toHaveProperty('lines');
  });

  it('fits the S3 metadata limit (2 KB) for 100 parts of the largest size', () => {
    const big = Array.from({ length: 100 }, () => ({ byteLength: 5_242_880 }) as Uint8Array);
    const counted = layoutMetadata(
      big.map(() => partFacts(Buffer.alloc(0))),
      'utf-8',
      SHA,
    );
    const worst = {
      ...counted,
      'part-sizes': big.map(() => '5242880').join(','),
      'part-newlines': big.map(() => '5242880').join(','),
      'whole-size': '524288000',
      lines: '524288000',
      encoding: 'binary',
      size: '5242880',
      sha256: SHA,
      'expires-at': new Date().toISOString(),
      owner: SHA,
    };
    const size = Object.entries(worst).reduce(
      (n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v),
      0,
    );
    expect(size).toBeLessThan(2048);
  });
});

async function collect(chunks: string[], from = { offset: 0, line: 1 }): Promise<LineChunk[]> {
  async function* source() {
    for (const c of chunks) yield bytes(c);
  }
  const out: LineChunk[] = [];
  for await (const batch of lineChunks(source(), from)) out.push(...batch);
  return out;
}

describe('line scanning', () => {
  it('numbers lines and their byte ranges across chunk boundaries', async () => {
    const lines = await collect(['ab', 'c\nd', 'é\n', '\nlast']);
    expect(lines.map(({ line, start, end, text, newline }) => [line, start, end, text, newline])).toEqual([
      [1, 0, 4, 'abc', true],
      [2, 4, 8, 'dé', true],
      [3, 8, 9, '', true],
      [4, 9, 13, 'last', false],
    ]);
  });

  it('never splits a character cut between chunks', async () => {
    const smile = bytes('😀');
    async function* source() {
      for (const b of smile) yield Uint8Array.of(b);
      yield bytes('\n');
    }
    const out: LineChunk[] = [];
    for await (const batch of lineChunks(source(), { offset: 0, line: 1 })) out.push(...batch);
    expect(out.map((l) => l.text)).toEqual(['😀']);
  });

  it('delivers a long line in pieces cut between characters, with memory for one piece', async () => {
    const long = 'é'.repeat(MAX_PIECE_BYTES);
    const lines = await collect([long.slice(0, 1000), long.slice(1000), '\nx']);
    const first = lines.filter((l) => l.line === 1);
    expect(first.length).toBeGreaterThan(1);
    expect(first.every((p) => Buffer.byteLength(p.text) <= MAX_PIECE_BYTES)).toBe(true);
    expect(first.map((p) => p.text).join('')).toBe(long);
    expect(first.map((p) => p.last)).toEqual([...first.slice(1).map(() => false), true]);
    expect(lines.at(-1)).toMatchObject({ line: 2, text: 'x' });
  });

  it('starts numbering where it is told to', async () => {
    const lines = await collect(['tail of 7\nline 8\n'], { offset: 500, line: 7 });
    expect(lines.map((l) => [l.line, l.start])).toEqual([
      [7, 500],
      [8, 510],
    ]);
  });
});
