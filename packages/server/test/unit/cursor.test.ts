import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, listFingerprint, paginate } from '../../src/protocol/cursor.ts';
import { ErrorCode, McpError } from '../../src/protocol/errors.ts';

const names = ['a', 'b', 'c', 'd', 'e'];
const fp = listFingerprint(names);

function rejection(run: () => unknown): McpError {
  try {
    run();
  } catch (e) {
    return e as McpError;
  }
  throw new Error('expected a rejection');
}

describe('pagination cursors', () => {
  it('a fingerprint is deterministic and tells different lists apart', () => {
    expect(listFingerprint(names)).toBe(fp);
    expect(listFingerprint(['a', 'b', 'c', 'd', 'f'])).not.toBe(fp);
    expect(listFingerprint(['ab', 'c'])).not.toBe(listFingerprint(['a', 'bc']));
  });

  it('an issued cursor decodes to its offset', () => {
    expect(decodeCursor(encodeCursor('tools', 2, fp), 'tools', fp, names.length)).toBe(2);
  });

  it('a cursor is opaque URL-safe text, not the plain list position', () => {
    const cursor = encodeCursor('tools', 2, fp);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('tools');
  });

  it.each([
    ['a number', 2],
    ['null', null],
    ['an empty string', ''],
    ['text that is not base64url', 'not a cursor!'],
    ['a foreign cursor', 'eyJwYWdlIjoyfQ'],
    ['an over-long cursor', 'A'.repeat(65)],
    ['a cursor for another list', encodeCursor('resources', 2, fp)],
    ['a cursor from a list that has changed', encodeCursor('tools', 2, listFingerprint(['x']))],
    ['a cursor at offset 0', encodeCursor('tools', 0, fp)],
    ['a cursor past the end', encodeCursor('tools', 5, fp)],
    ['a hand-made cursor with a negative offset', Buffer.from(`tools:-1:${fp}`).toString('base64url')],
  ])('refuses %s with -32602', (_name, cursor) => {
    const error = rejection(() => decodeCursor(cursor, 'tools', fp, names.length));
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(/cursor/);
  });

  it('paginate walks the whole list in order and ends without a cursor', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const { page, nextCursor } = paginate(names, cursor, 2, 'tools', fp);
      seen.push(...page);
      if (!nextCursor) break;
      cursor = nextCursor;
    }
    expect(seen).toEqual(names);
  });

  it('a list that fits one page has no nextCursor', () => {
    expect(paginate(names, undefined, 5, 'tools', fp)).toEqual({ page: names });
  });
});
