import type { RangeReader, StoredRange } from '../../storage/storage.ts';
import { readLayout, type OutputLayout } from '../layout.ts';
import { fromStored, type OutputEncoding } from '../object-info.ts';
import { MAX_PARTS, outputKey, type OutputAddress } from '../uri.ts';
import type { OutputFacts } from './page.ts';

/** A stored output found for its caller: its facts, how its parts make up the whole, and their keys. */
export interface LocatedOutput {
  facts: OutputFacts;
  encoding: OutputEncoding;
  layout: OutputLayout;
  /** Storage key of each part, in order. */
  keys: string[];
}

/** The output changed or vanished while a page was read (it expired mid-read): a failure, not a page. */
export class OutputChangedError extends Error {
  constructor(key: string) {
    super(`stored output object ${key} changed or vanished while it was read`);
    this.name = 'OutputChangedError';
  }
}

/** What locating needs: the storage, the prefix, the caller's owner tag and the clock. */
export interface LocateOptions {
  storage: RangeReader;
  prefix: string;
  owner: string | undefined;
  now: number;
}

/** The first object of an output: the one addressed, or part 1 of the parts (any part, or the bare id, names it). */
async function probeEntry(
  options: LocateOptions,
  address: OutputAddress,
): Promise<{ entry: StoredRange; multi: boolean } | undefined> {
  const { storage, prefix, owner } = options;
  if (address.part === undefined) {
    const whole = await storage.getRange(outputKey(prefix, { id: address.id }, owner), 0, 0);
    if (whole) return { entry: whole, multi: false };
  }
  const first = await storage.getRange(outputKey(prefix, { id: address.id, part: 1 }, owner), 0, 0);
  return first && { entry: first, multi: true };
}

/** Finds the parts of an output written before the first object carried its part table, one small read each. */
async function probeParts(options: LocateOptions, id: string, first: number): Promise<OutputLayout['parts']> {
  const parts = [{ start: 0, size: first }];
  for (let part = 2; part <= MAX_PARTS; part++) {
    const next = await options.storage.getRange(outputKey(options.prefix, { id, part }, options.owner), 0, 0);
    if (!next) break;
    const last = parts.at(-1)!;
    parts.push({ start: last.start + last.size, size: next.totalSize });
  }
  return parts;
}

/**
 * Locates a stored output for a caller with one small ranged read of its first object (the metadata describes the
 * whole). `undefined` for anything that is not a live output of this caller: missing, expired, written by someone
 * else or not by this feature. The caller's owner tag is part of every key, so others' outputs are never read.
 */
export async function locateOutput(
  options: LocateOptions,
  uri: string,
  address: OutputAddress,
): Promise<LocatedOutput | undefined> {
  const probed = await probeEntry(options, address);
  if (!probed) return undefined;
  const { entry, multi } = probed;
  const info = fromStored(entry);
  if (!info || info.expiresAt <= options.now || info.owner !== options.owner) return undefined;
  if (info.size !== entry.totalSize) throw new OutputChangedError(uri);
  let layout = readLayout(entry.metadata, info, multi);
  if (!layout) {
    const parts = await probeParts(options, address.id, entry.totalSize);
    const size = parts.reduce((n, p) => n + p.size, 0);
    // Outputs stored before the part table was written: no whole-output hash or line count is known.
    layout = { size, parts };
  }
  const id = address.id;
  const keys = layout.parts.map((_p, i) =>
    outputKey(options.prefix, multi ? { id, part: i + 1 } : { id }, options.owner),
  );
  const facts: OutputFacts = {
    uri,
    mimeType: info.mimeType,
    size: layout.size,
    ...(layout.sha256 !== undefined ? { sha256: layout.sha256 } : {}),
    ...(layout.lines !== undefined ? { lines: layout.lines } : {}),
    expiresAt: new Date(info.expiresAt).toISOString(),
  };
  return { facts, encoding: info.encoding, layout, keys };
}

/** Bytes [start, end) of the whole output, read with one ranged GET per part they touch. */
export async function readBytes(
  storage: RangeReader,
  located: LocatedOutput,
  start: number,
  end: number,
): Promise<Buffer> {
  const reads = located.layout.parts.flatMap((part, i) => {
    const from = Math.max(start, part.start);
    const to = Math.min(end, part.start + part.size);
    return from < to
      ? [{ key: located.keys[i]!, from: from - part.start, to: to - part.start, size: part.size }]
      : [];
  });
  const bodies = await Promise.all(
    reads.map(async (r) => {
      const read = await storage.getRange(r.key, r.from, r.to);
      if (!read || read.totalSize !== r.size || read.body.byteLength !== r.to - r.from)
        throw new OutputChangedError(r.key);
      return read.body;
    }),
  );
  return Buffer.concat(bodies);
}

/** The output's bytes from the start of part `first` on, chunk by chunk, one streamed GET per part. */
export async function* streamFrom(
  storage: RangeReader,
  located: LocatedOutput,
  first: number,
): AsyncGenerator<Uint8Array> {
  for (let i = first; i < located.keys.length; i++) {
    const chunks = await storage.stream(located.keys[i]!);
    if (!chunks) throw new OutputChangedError(located.keys[i]!);
    yield* chunks;
  }
}
