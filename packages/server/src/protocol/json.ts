import { MAX_JSON_DEPTH } from '../limits.ts';
import type { JSONObject } from './types.ts';

/** Whether a parsed JSON value is an object (not null, not an array): the shape of params, `_meta` and results. */
export const isJsonObject = (value: unknown): value is JSONObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether a value nests arrays and objects more than `max` levels deep (the value itself, when it is one, is level
 * 1). It descends at most `max + 1` levels and stops at the first value too deep, so it is safe on any value, a
 * cyclic one included (which counts as too deep). Run after `JSON.parse`, which needs no stack for deep text in V8:
 * measured faster than a scan of the text for brackets, since strings and numbers are skipped without a look.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null && nestsDeeperThan(item, max - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null && nestsDeeperThan(member, max - 1)) return true;
  }
  return false;
}

/**
 * A value's JSON with object keys sorted at every level: two values that differ only in key order give the same
 * text, so a digest of it identifies the value (e.g. the arguments a sealed `requestState` or an approval proof
 * belongs to). Values that differ otherwise never give the same text (0 and -0 aside, as JSON itself has them).
 * Throws a RangeError of its own, before any recursion, for a value deeper than `MAX_JSON_DEPTH` (no client message
 * is: the transport refuses them).
 */
export function canonicalJson(value: unknown): string {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH))
    throw new RangeError(`canonicalJson: the value nests more than ${MAX_JSON_DEPTH} levels deep`);
  return canonical(value);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  // JSON.stringify writes null for Infinity and NaN (a number like 1e999 parses as Infinity), which would make them
  // one value with null: they get spellings of their own, which no JSON text has.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value) ?? 'null';
}
