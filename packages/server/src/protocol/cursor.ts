import { clientText } from './client-text.ts';
import { InvalidParamsError } from './errors.ts';

/**
 * Opaque pagination cursors (spec: server/utilities/pagination). A cursor names a list, an offset and a
 * fingerprint of the list it was cut from, so any instance of the same deployment can resume it statelessly,
 * and a cursor we did not issue (or one from a list that has since changed) is refused with -32602.
 */

/** FNV-1a over the item names: cheap, deterministic, good enough to tell two lists apart. */
export function listFingerprint(names: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const name of names) {
    for (let i = 0; i < name.length; i++) {
      hash ^= name.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    hash = Math.imul(hash ^ 0x2c, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** Encodes the position of the next page. */
export function encodeCursor(list: string, offset: number, fingerprint: string): string {
  return Buffer.from(`${list}:${offset}:${fingerprint}`, 'utf8').toString('base64url');
}

const CURSOR_SHAPE = /^[a-z]+:(\d{1,9}):([0-9a-z]{1,13})$/;

/** Decodes a cursor for `list`; anything we did not issue for that list and fingerprint is -32602. */
export function decodeCursor(cursor: unknown, list: string, fingerprint: string, total: number): number {
  const reject = () =>
    new InvalidParamsError(
      'unknown or expired cursor',
      // Echo only a capped string: an arbitrary client value could be huge or nested too deep to serialize.
      typeof cursor === 'string' ? { cursor: clientText(cursor, 64) } : undefined,
    );
  if (
    typeof cursor !== 'string' ||
    cursor.length === 0 ||
    cursor.length > 64 ||
    !/^[A-Za-z0-9_-]+$/.test(cursor)
  ) {
    throw reject();
  }
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = CURSOR_SHAPE.exec(text);
  if (!match || !text.startsWith(`${list}:`) || match[2] !== fingerprint) throw reject();
  const offset = Number(match[1]);
  if (offset <= 0 || offset >= total) throw reject();
  return offset;
}

/** Cuts one page out of `items`, returning the page and the cursor of the next one (if any). */
export function paginate<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
  list: string,
  fingerprint: string,
): { page: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : decodeCursor(cursor, list, fingerprint, items.length);
  const end = start + pageSize;
  const page = items.slice(start, end);
  return end < items.length ? { page, nextCursor: encodeCursor(list, end, fingerprint) } : { page };
}
