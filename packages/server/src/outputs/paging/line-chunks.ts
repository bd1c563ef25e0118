import { isContinuation } from './bytes.ts';

/** A line of the output, or a piece of a long one. The scan yields them in batches, one per chunk read. */
export interface LineChunk {
  /** 1-based line number. */
  line: number;
  /** Byte range of the piece in the output; `end` includes the newline when there is one. */
  start: number;
  end: number;
  /** The piece's text, without the newline. */
  text: string;
  /** Whether the line ends with this piece (a newline, or the end of the output, follows). */
  last: boolean;
  /** Whether a newline ends the piece (every line but possibly the output's last). */
  newline: boolean;
}

/** Longest piece of a line held at once: a line longer than this arrives in several pieces. */
export const MAX_PIECE_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into numbered lines with bounded memory: only the unfinished line is carried from one chunk
 * to the next, and a line longer than `MAX_PIECE_BYTES` is delivered in pieces cut between characters. Splitting
 * on the newline byte is safe in UTF-8 (it never occurs inside a multi-byte character). `from` is where the stream
 * starts: a byte offset in the output and the number of the line that offset falls in.
 */
export async function* lineChunks(
  chunks: AsyncIterable<Uint8Array>,
  from: { offset: number; line: number },
): AsyncGenerator<LineChunk[]> {
  let line = from.line;
  let carry: Buffer = Buffer.alloc(0);
  let carryStart = from.offset;
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buffer = carry.length ? Buffer.concat([carry, bytes]) : bytes;
    const batch: LineChunk[] = [];
    let at = 0;
    for (let nl = buffer.indexOf(NEWLINE); nl !== -1; nl = buffer.indexOf(NEWLINE, at)) {
      batch.push({
        line,
        start: carryStart + at,
        end: carryStart + nl + 1,
        text: buffer.toString('utf8', at, nl),
        last: true,
        newline: true,
      });
      line++;
      at = nl + 1;
    }
    while (buffer.length - at > MAX_PIECE_BYTES) {
      let cut = at + MAX_PIECE_BYTES;
      while (cut > at && isContinuation(buffer[cut])) cut--;
      batch.push({
        line,
        start: carryStart + at,
        end: carryStart + cut,
        text: buffer.toString('utf8', at, cut),
        last: false,
        newline: false,
      });
      at = cut;
    }
    // Copy the unfinished line, so the chunk it came from can be collected.
    carry = Buffer.from(buffer.subarray(at));
    carryStart += at;
    if (batch.length) yield batch;
  }
  if (carry.length) {
    yield [
      {
        line,
        start: carryStart,
        end: carryStart + carry.length,
        text: carry.toString('utf8'),
        last: true,
        newline: false,
      },
    ];
  }
}
