import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { isLogRetention, removalPolicyNamed } from '../defaults.ts';

/**
 * Reads one given context value: a string from `-c key=value`, or its JSON type from cdk.json (both are accepted).
 * Throws naming the key when the value does not fit. Only types are checked here; ranges are the constructs'.
 */
export type Parser<T> = (value: unknown, key: string) => T;

/** A context value the app cannot use: the user's to fix, so the CDK app prints its message alone. */
export class ContextError extends Error {
  override name = 'ContextError';
}

/** The error every parser throws: the context key, what it must be, and the value it got. */
export function fail(key: string, expected: string, value: unknown): never {
  throw new ContextError(`Context "${key}" must be ${expected} (got ${JSON.stringify(value)})`);
}

/** Whether a context value was given at all: an empty `-c key=` counts as left out. */
export const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

export const text: Parser<string> = (value, key) =>
  typeof value === 'string' ? value : fail(key, 'a string', value);

export const integer: Parser<number> = (value, key) => {
  const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) ? n : fail(key, 'an integer', value);
};

export const flag: Parser<boolean> = (value, key) => {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fail(key, 'true or false', value);
};

/** A comma-separated string (`-c`) or an array of strings (cdk.json). */
export const list: Parser<string[]> = (value, key) => {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return fail(key, 'a comma-separated string or an array of strings', value);
};

/** Text in any case, one of `choices` once folded to their case. */
export function oneOf<T extends string>(
  choices: readonly T[],
  expected: string,
  fold: 'lower' | 'upper',
): Parser<T> {
  return (value, key) => {
    const raw = text(value, key);
    const folded = fold === 'lower' ? raw.toLowerCase() : raw.toUpperCase();
    return choices.includes(folded as T) ? (folded as T) : fail(key, expected, value);
  };
}

/** Text that must match a pattern, e.g. an ARN. */
export function matching(pattern: RegExp, expected: string): Parser<string> {
  return (value, key) => {
    const raw = text(value, key);
    return pattern.test(raw) ? raw : fail(key, expected, raw);
  };
}

/** A whole number of seconds. */
export const seconds: Parser<Duration> = (value, key) => Duration.seconds(integer(value, key));

/** A number of days CloudWatch Logs offers as a retention. */
export const retention: Parser<RetentionDays> = (value, key) => {
  const days = integer(value, key);
  return isLogRetention(days)
    ? days
    : fail(key, 'a CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, 180, 365, ...)', days);
};

export const removalPolicy: Parser<RemovalPolicy> = (value, key) =>
  removalPolicyNamed(oneOf(['destroy', 'retain'] as const, '"destroy" or "retain"', 'lower')(value, key));

/** A key that is never accepted, with the reason as what it "must be". */
export function refused(reason: string): Parser<never> {
  return (value, key) => fail(key, reason, value);
}
