/** The checks every option of `npm run load` shares: the usage error, and numbers within a range. */

/** A usage error: the message (one line) names the option and what is wrong. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const ECHO_LIMIT = 80;

/** A client-supplied value quoted for an error message, capped so a huge argument cannot flood the terminal. */
export const quote = (raw: string): string =>
  JSON.stringify(raw.length > ECHO_LIMIT ? `${raw.slice(0, ECHO_LIMIT)}…` : raw);

/** A number from `min` to `max` (an integer when asked), `fallback` when the option was not given. */
export function number(
  raw: string | undefined,
  option: string,
  fallback: number,
  min: number,
  max: number,
  integer: boolean,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value)) ||
    value < min ||
    value > max
  ) {
    throw new UsageError(
      `--${option} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max} (got ${quote(raw)})`,
    );
  }
  return value;
}
