import type { RangeReader } from '../../storage/storage.ts';
import { readBytes, type LocatedOutput } from './locate.ts';
import { count, fitText, PageRefusal, type PageBody, type PageQuery } from './page.ts';

/** UTF-8 continuation bytes (10xxxxxx) never start a character. */
export const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** Bytes of the UTF-8 sequence a lead byte starts (1 for a byte that is not a lead byte). */
const sequenceLength = (byte: number) => (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1);

/**
 * A page by byte offset and length, read with one ranged GET per part it touches. Both ends move to character
 * boundaries (the start back to the character it falls in, the end back before a character it would split), and
 * the page stops early when its text would outgrow the budget; the page says where it really starts and ends.
 */
export async function bytesPage(
  storage: RangeReader,
  located: LocatedOutput,
  query: Extract<PageQuery, { mode: 'bytes' }>,
): Promise<PageBody> {
  const { size } = located.facts;
  const { offset } = query;
  if (offset > 0 && offset >= size) {
    throw new PageRefusal(
      `offset ${count(offset)} is past the end of the output, which has ${count(size)} bytes ` +
        `(offsets 0 to ${count(size - 1)}). Ask for an offset below ${count(size)}.`,
    );
  }
  const length = Math.min(query.length, query.budget);
  // Three bytes either side are enough to find the character boundaries around both ends.
  const from = Math.max(0, offset - 3);
  const bytes = await readBytes(storage, located, from, Math.min(size, offset + length + 4));
  const at = (position: number) => bytes[position - from];
  let start = offset;
  while (start > from && isContinuation(at(start))) start--;
  let end = Math.min(size, offset + length);
  while (end > start && isContinuation(at(end))) end--;
  if (end === start && start < size) end = Math.min(size, start + sequenceLength(at(start)!));
  const whole = bytes.toString('utf8', start - from, end - from);
  const text = fitText(whole, query.budget);
  const stop = text.length === whole.length ? end : start + Buffer.byteLength(text, 'utf8');
  const notes = [
    start !== offset
      ? `offset ${count(offset)} falls inside a character: the page starts at ${count(start)}`
      : '',
    query.length > length ? `count is capped at ${count(length)} bytes per page` : '',
    stop < end ? 'the page stopped early to stay within the page size (its text escapes to more bytes)' : '',
  ].filter(Boolean);
  return {
    ...located.facts,
    mode: 'bytes',
    text,
    offset: start,
    length: stop - start,
    ...(stop < size ? { nextOffset: stop } : {}),
    ...(stop < end ? { truncated: true } : {}),
    ...(notes.length ? { note: `${notes.join('; ')}.` } : {}),
  };
}
