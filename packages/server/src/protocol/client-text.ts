/** Most characters of a client-supplied string repeated in an error or a log line. */
const CLIENT_TEXT_MAX_CHARS = 128;

/** Most characters of a client value the protocol makes us repeat exactly (a progress token, a subscription id). */
const EXACT_ECHO_MAX_CHARS = 256;

/**
 * A client-supplied value, safe to repeat back: a string is cut to `max` characters (with a note of how long it
 * was), anything else is only named by its type, so an error never amplifies what the client sent.
 */
export function clientText(value: unknown, max = CLIENT_TEXT_MAX_CHARS): string {
  if (typeof value !== 'string') return `(${value === null ? 'null' : typeof value})`;
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

/**
 * Whether a client value that can only be repeated whole (it cannot be cut like `clientText`) is short enough to
 * repeat: numbers always are, strings up to 256 characters. Longer ones are not repeated at all, so a response
 * never carries a client string several times over.
 */
export function isShortEcho(value: string | number): boolean {
  return typeof value === 'number' || value.length <= EXACT_ECHO_MAX_CHARS;
}
