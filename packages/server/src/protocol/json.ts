import type { JSONObject } from './types.ts';

/** Whether a parsed JSON value is an object (not null, not an array): the shape of params, `_meta` and results. */
export const isJsonObject = (value: unknown): value is JSONObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value's JSON with object keys sorted at every level: two values that differ only in key order give the same
 * text, so a digest of it identifies the value (e.g. the arguments a sealed `requestState` belongs to).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
