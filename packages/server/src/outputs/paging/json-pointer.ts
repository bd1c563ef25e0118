import { clientText } from '../../protocol/client-text.ts';

/**
 * JSON Pointer (RFC 6901) in its JSON string form: "" is the whole document, otherwise "/" before each reference
 * token, with "~1" for "/" and "~0" for "~" inside a token. Parsing and resolving are pure; every failure is a
 * sentence the model can act on.
 */

export type PointerResult<T> = { ok: true; value: T } | { ok: false; message: string };

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** Splits a pointer into its unescaped reference tokens. */
export function parsePointer(pointer: string): PointerResult<string[]> {
  if (pointer === '') return { ok: true, value: [] };
  const shown = JSON.stringify(clientText(pointer));
  if (pointer.startsWith('#'))
    return {
      ok: false,
      message:
        `pointer ${shown} is in URI fragment form; pass the plain form without "#" ` +
        `(for example "/items/0/name"), and "" for the whole document.`,
    };
  if (!pointer.startsWith('/'))
    return {
      ok: false,
      message: `pointer ${shown} must be "" (the whole document) or start with "/" (for example "/items/0").`,
    };
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    const bad = /~(?![01])/.exec(raw);
    if (bad)
      return {
        ok: false,
        message:
          `pointer ${shown} has "~" not followed by 0 or 1; write "~0" for "~" and "~1" for "/" inside a ` +
          `member name (RFC 6901).`,
      };
    tokens.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return { ok: true, value: tokens };
}

/** Writes tokens back as a pointer (escaping "~" and "/"). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The type name a JSON value has in messages and pages. */
export function jsonType(value: unknown): 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'object' | 'string' | 'number' | 'boolean';
}

/** Follows the tokens from the root; a missing member or index names where the path stopped and what is there. */
export function resolvePointer(root: unknown, tokens: readonly string[]): PointerResult<unknown> {
  let value = root;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const at = formatPointer(tokens.slice(0, i)) || '(the root)';
    const where = JSON.stringify(clientText(token));
    if (Array.isArray(value)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= value.length) {
        const range = value.length === 0 ? 'it is empty' : `indexes 0 to ${value.length - 1}`;
        return {
          ok: false,
          message: `${at} is an array of ${value.length} items (${range}); ${where} is not one of its indexes.`,
        };
      }
      value = value[Number(token)];
    } else if (value !== null && typeof value === 'object') {
      if (!Object.hasOwn(value, token)) {
        const keys = Object.keys(value);
        const some = keys.slice(0, 10).map((k) => JSON.stringify(clientText(k, 40)));
        const list = keys.length
          ? `; its members include ${some.join(', ')}${keys.length > 10 ? ', …' : ''}`
          : '';
        return {
          ok: false,
          message: `${at} is an object with ${keys.length} members and no member ${where}${list}.`,
        };
      }
      value = (value as Record<string, unknown>)[token];
    } else {
      return {
        ok: false,
        message: `${at} is a ${jsonType(value)}, which has no members: the pointer cannot go on to ${where}.`,
      };
    }
  }
  return { ok: true, value };
}
