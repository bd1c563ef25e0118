/**
 * The key strings of a session secret: one or more, comma, space or newline separated, newest first (session-keys.ts
 * says how they rotate). Checked at cold start by the configuration, so a short key fails before the first request.
 */

/** Fewest characters of one key string: 32 characters key AES-256 through HKDF with margin. */
const MIN_SESSION_KEY_CHARS = 32;

/** Splits a secret value into its key strings, newest first; throws naming the problem (never the value). */
export function sessionKeyStrings(value: string): string[] {
  const keys = value
    .split(/[\s,]+/)
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0) throw new Error('the session secret holds no key');
  if (keys.some((k) => k.length < MIN_SESSION_KEY_CHARS))
    throw new Error(`every session key must be at least ${MIN_SESSION_KEY_CHARS} characters`);
  return keys;
}
