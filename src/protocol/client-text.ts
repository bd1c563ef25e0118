/** Most characters of a client-supplied string repeated in an error or a log line. */
const CLIENT_TEXT_MAX_CHARS = 128;

/**
 * A client-supplied value, safe to repeat back: a string is cut to `max` characters (with a note of how long it
 * was), anything else is only named by its type, so an error never amplifies what the client sent.
 */
export function clientText(value: unknown, max = CLIENT_TEXT_MAX_CHARS): string {
  if (typeof value !== 'string') return `(${value === null ? 'null' : typeof value})`;
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}
