import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/storage/memory.ts';
import type { RangeReader, StorageReader, StorageWriter } from '../../src/storage/storage.ts';
import { startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';

// The ranged read side, the same over the in-memory storage and a real S3-compatible server: byte ranges clipped
// to the object, with its attributes and total size, and streams that deliver exactly the bytes from an offset.

type Storage = StorageWriter & StorageReader & RangeReader;

let s3: TestS3;
beforeAll(async () => {
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
});

const BYTES = randomBytes(300_000);
const attributes = { contentType: 'text/plain', metadata: { size: String(BYTES.length), mark: 'x' } };

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

describe.each([
  ['in memory', () => memoryStorage() as Storage],
  ['over S3', () => s3.rangedStorage()],
])('ranged reads %s', (_label, make) => {
  let storage: Storage;

  beforeAll(async () => {
    storage = make();
    await storage.put('outputs/whole', BYTES, attributes);
    await storage.put('outputs/empty', new Uint8Array(), attributes);
  });

  it('returns bytes [start, end) with the attributes and the total size', async () => {
    const read = await storage.getRange('outputs/whole', 1000, 5000);
    expect(read).toMatchObject({ start: 1000, totalSize: BYTES.length, contentType: 'text/plain' });
    expect(read!.metadata).toMatchObject({ mark: 'x' });
    expect(Buffer.from(read!.body).equals(BYTES.subarray(1000, 5000))).toBe(true);
  });

  it('clips a range that runs past the end', async () => {
    const read = await storage.getRange('outputs/whole', BYTES.length - 10, BYTES.length + 500);
    expect(Buffer.from(read!.body).equals(BYTES.subarray(BYTES.length - 10))).toBe(true);
  });

  it('answers an empty range, or one past the end, with no bytes but the facts', async () => {
    for (const [start, end] of [
      [0, 0],
      [50, 10],
      [BYTES.length, BYTES.length + 5],
      [BYTES.length + 1000, BYTES.length + 2000],
    ] as const) {
      const read = await storage.getRange('outputs/whole', start, end);
      expect(read).toMatchObject({ start, totalSize: BYTES.length });
      expect(read!.body.byteLength).toBe(0);
      expect(read!.metadata).toMatchObject({ mark: 'x' });
    }
  });

  it('reads an empty object as an empty range of size 0', async () => {
    const read = await storage.getRange('outputs/empty', 0, 100);
    expect(read).toMatchObject({ start: 0, totalSize: 0 });
    expect(read!.body.byteLength).toBe(0);
    expect(await collect((await storage.stream('outputs/empty'))!)).toHaveLength(0);
  });

  it('answers a missing key with undefined for ranges and streams alike', async () => {
    expect(await storage.getRange('outputs/missing', 0, 10)).toBeUndefined();
    expect(await storage.stream('outputs/missing')).toBeUndefined();
  });

  it('streams the bytes from an offset to the end, in chunks', async () => {
    expect((await collect((await storage.stream('outputs/whole'))!)).equals(BYTES)).toBe(true);
    const tail = await collect((await storage.stream('outputs/whole', 123_457))!);
    expect(tail.equals(BYTES.subarray(123_457))).toBe(true);
  });

  it('a stream left early releases its connection: later reads still work', async () => {
    for (let i = 0; i < 20; i++) {
      for await (const _chunk of (await storage.stream('outputs/whole'))!) break;
    }
    const read = await storage.getRange('outputs/whole', 0, 10);
    expect(Buffer.from(read!.body).equals(BYTES.subarray(0, 10))).toBe(true);
  });
});
