import type { JSONObject } from './types.ts';

/** Whether a parsed JSON value is an object (not null, not an array): the shape of params, `_meta` and results. */
export const isJsonObject = (value: unknown): value is JSONObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A value's JSON with object keys sorted at every level: two values that differ only in key order give the same
 * text, so a digest of it identifies the value (e.g. the arguments a sealed `requestState` or an approval proof
 * belongs to). Values that differ otherwise never give the same text (0 and -0 aside, as JSON itself has them).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  // JSON.stringify writes null for Infinity and NaN (a number like 1e999 parses as Infinity), which would make them
  // one value with null: they get spellings of their own, which no JSON text has.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value) ?? 'null';
}
