import { binaryPartBytes } from './parts.ts';

/**
 * Cuts an output into parts as its bytes arrive, by the rules of `parts.ts`: text parts by their doubly escaped
 * size, only between characters; binary parts by their base64 length. Bytes are copied once, into the part being
 * filled; a part leaves as soon as it is full, so a streamed output is held one part at a time.
 *
 * Text is measured on its UTF-8 bytes, which gives the same cuts as `splitText` on the string: a character of 2, 3
 * or 4 UTF-8 bytes costs as many bytes escaped, and every ASCII byte costs what its character does.
 */

/** Doubly escaped size of each ASCII byte; a byte of a multi-byte character costs 1. */
const COST = new Uint8Array(256).fill(1);
for (let b = 0; b < 0x20; b++)
  COST[b] = b === 0x08 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d ? 3 : 7;
COST[0x22] = 4; // "
COST[0x5c] = 4; // \

/** UTF-8 continuation bytes (10xxxxxx) never start a character. */
const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** Cuts a byte stream into parts; `push` and `end` return the parts completed, in order. */
export class PartCutter {
  private part: Buffer;
  private length = 0;
  /** Doubly escaped size of the part so far (text). */
  private used = 0;
  private readonly capacity: number;

  constructor(
    private readonly encoding: 'utf-8' | 'binary',
    private readonly budget: number,
  ) {
    if (!Number.isInteger(budget) || budget < 8)
      throw new Error('part budget must be an integer of at least 8');
    // A text part's bytes never exceed its escaped size; a binary part is a fixed number of bytes.
    this.capacity = encoding === 'utf-8' ? budget : binaryPartBytes(budget);
    this.part = Buffer.allocUnsafe(this.capacity);
  }

  /** Adds bytes; returns the parts they completed. */
  push(chunk: Uint8Array): Buffer[] {
    return this.encoding === 'utf-8' ? this.pushText(chunk) : this.pushBinary(chunk);
  }

  /** The last part, if any bytes are left (an empty output is one empty part). */
  end(first: boolean): Buffer[] {
    if (this.length === 0 && !first) return [];
    return [this.take(this.length)];
  }

  private pushBinary(chunk: Uint8Array): Buffer[] {
    const done: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(chunk.length - at, this.capacity - this.length);
      this.part.set(chunk.subarray(at, at + n), this.length);
      this.length += n;
      at += n;
      if (this.length === this.capacity) done.push(this.take(this.length));
    }
    return done;
  }

  private pushText(chunk: Uint8Array): Buffer[] {
    const done: Buffer[] = [];
    const budget = this.budget;
    let at = 0;
    while (at < chunk.length) {
      let used = this.used;
      let i = at;
      for (; i < chunk.length; i++) {
        const cost = COST[chunk[i]!]!;
        if (used + cost > budget) break;
        used += cost;
      }
      this.part.set(chunk.subarray(at, i), this.length);
      this.length += i - at;
      this.used = used;
      at = i;
      if (i < chunk.length) done.push(this.cutText(isContinuation(chunk[i])));
    }
    return done;
  }

  /**
   * Ends the current part where the budget ran out. When the next byte continues a character, the start of that
   * character (at most 3 bytes, at the end of this part) moves to the next part, so no part splits a character.
   */
  private cutText(splitsCharacter: boolean): Buffer {
    let cut = this.length;
    if (splitsCharacter) {
      let lead = this.length;
      while (lead > this.length - 3 && lead > 0 && isContinuation(this.part[lead - 1])) lead--;
      // `lead - 1` starts the character, unless the bytes are not UTF-8 (then cut where the budget ran out).
      if (lead > 1 && !isContinuation(this.part[lead - 1]) && this.part[lead - 1]! >= 0xc0) cut = lead - 1;
    }
    const carry = Buffer.from(this.part.subarray(cut, this.length));
    const full = this.take(cut);
    this.part.set(carry, 0);
    this.length = carry.length;
    this.used = carry.length;
    return full;
  }

  /** Hands out the first `size` bytes as a part and starts a new one. */
  private take(size: number): Buffer {
    const full = this.part.subarray(0, size);
    this.part = Buffer.allocUnsafe(this.capacity);
    this.length = 0;
    this.used = 0;
    return full;
  }
}
