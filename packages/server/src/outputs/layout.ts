/**
 * How a stored output's objects make up the whole output. The offloader writes these facts on the first object of
 * an output (S3 user metadata, 2 KB at most: the sizes and newline counts of 100 parts fit in about 1.6 KB), so a
 * reader turns a whole-output byte offset or line number into a part and a range with no scan.
 */

/** One stored object of an output, placed in the whole. */
interface PartSpan {
  /** Byte offset of the part in the whole output. */
  start: number;
  size: number;
  /** Newlines before this part, when known. */
  newlinesBefore?: number;
}

/** The whole output as its first object describes it. */
export interface OutputLayout {
  size: number;
  /** SHA-256 of the whole output; unknown only for multi-part outputs stored before the part table. */
  sha256?: string;
  /** Lines of a text output (a last line without a newline counts), when known. */
  lines?: number;
  parts: PartSpan[];
}

const KEY = {
  lines: 'lines',
  partSizes: 'part-sizes',
  partNewlines: 'part-newlines',
  wholeSize: 'whole-size',
  wholeSha256: 'whole-sha256',
} as const;

const NEWLINE = 0x0a;
const DIGITS = /^(0|[1-9][0-9]{0,15})$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Newlines in some bytes. */
export function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/** What the layout records of one part, counted when it was cut (a streamed output's parts are gone by the end). */
export interface PartFacts {
  size: number;
  /** Newlines in the part (text). */
  newlines: number;
  /** Whether the part's last byte is a newline. */
  endsWithNewline: boolean;
}

/** The facts of one part's bytes. */
export function partFacts(bytes: Uint8Array): PartFacts {
  return {
    size: bytes.byteLength,
    newlines: countNewlines(bytes),
    endsWithNewline: bytes[bytes.byteLength - 1] === NEWLINE,
  };
}

/** The metadata the first object of an output carries about the whole (text: lines; several parts: the parts). */
export function layoutMetadata(
  parts: readonly PartFacts[],
  encoding: 'utf-8' | 'binary',
  wholeSha256: string,
): Record<string, string> {
  const multi = parts.length > 1;
  const size = parts.reduce((n, p) => n + p.size, 0);
  const meta: Record<string, string> = {};
  if (multi) {
    meta[KEY.partSizes] = parts.map((p) => p.size).join(',');
    meta[KEY.wholeSize] = String(size);
    meta[KEY.wholeSha256] = wholeSha256;
  }
  if (encoding === 'utf-8') {
    const newlines = parts.map((p) => p.newlines);
    // The last non-empty part decides whether the output ends with an unfinished line.
    const last = parts.findLast((p) => p.size > 0);
    const open = last !== undefined && !last.endsWithNewline;
    meta[KEY.lines] = String(newlines.reduce((a, b) => a + b, 0) + (open ? 1 : 0));
    if (multi) meta[KEY.partNewlines] = newlines.join(',');
  }
  return meta;
}

const numbers = (value: string | undefined): number[] | undefined => {
  if (value === undefined) return undefined;
  const list = value.split(',');
  return list.every((n) => DIGITS.test(n)) ? list.map(Number) : undefined;
};

/**
 * The layout an output's first object describes. `entry` is that object's own size and hash; `multi` says it is
 * part 1 of several. `undefined` when the metadata of a multi-part output lacks its part table (the caller may
 * then find the parts by probing) or is inconsistent.
 */
export function readLayout(
  metadata: Readonly<Record<string, string>>,
  entry: { size: number; sha256: string },
  multi: boolean,
): OutputLayout | undefined {
  const lines = metadata[KEY.lines] !== undefined ? numbers(metadata[KEY.lines])?.[0] : undefined;
  const withLines = lines !== undefined ? { lines } : {};
  if (!multi)
    return {
      size: entry.size,
      sha256: entry.sha256,
      ...withLines,
      parts: [{ start: 0, size: entry.size, newlinesBefore: 0 }],
    };
  const sizes = numbers(metadata[KEY.partSizes]);
  const size = numbers(metadata[KEY.wholeSize])?.[0];
  const sha256 = metadata[KEY.wholeSha256];
  if (!sizes || size === undefined || !sha256 || !SHA256_HEX.test(sha256)) return undefined;
  if (sizes[0] !== entry.size || sizes.reduce((a, b) => a + b, 0) !== size) return undefined;
  const newlines = numbers(metadata[KEY.partNewlines]);
  const counted = newlines !== undefined && newlines.length === sizes.length;
  let start = 0;
  let before = 0;
  const parts = sizes.map((partSize, i) => {
    const span: PartSpan = { start, size: partSize, ...(counted ? { newlinesBefore: before } : {}) };
    start += partSize;
    if (counted) before += newlines[i]!;
    return span;
  });
  return { size, sha256, ...withLines, parts };
}

/** Index of the part holding byte `offset` (the last part for the end of the output). */
export function partAt(layout: OutputLayout, offset: number): number {
  const { parts } = layout;
  let low = 0;
  let high = parts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (parts[mid]!.start <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Where a scan for line `line` (1-based) may start: the part holding the newline that ends the line before it,
 * and how many newlines precede that part. Without newline counts the scan starts at the beginning.
 */
export function scanStartForLine(
  layout: OutputLayout,
  line: number,
): { part: number; newlinesBefore: number } {
  const { parts } = layout;
  if (line <= 1 || parts.some((p) => p.newlinesBefore === undefined)) return { part: 0, newlinesBefore: 0 };
  // The last part whose preceding newlines are fewer than the line - 1 needed.
  let part = 0;
  for (let i = 1; i < parts.length; i++) if (parts[i]!.newlinesBefore! < line - 1) part = i;
  return { part, newlinesBefore: parts[part]!.newlinesBefore! };
}
