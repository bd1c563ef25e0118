import type { JSONObject } from './types.ts';

/** Whether a parsed JSON value is an object (not null, not an array): the shape of params, `_meta` and results. */
export const isJsonObject = (value: unknown): value is JSONObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
