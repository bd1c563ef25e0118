/** Scope policy: pure functions over the scopes a token grants and the scopes a request needs. */

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Whether a string is a valid scope name (checked on configuration and tool definitions). */
export function isScopeToken(value: string): boolean {
  return SCOPE_TOKEN.test(value);
}

/**
 * The scopes a token grants: `scope` as a space-separated string (RFC 8693 §4.2, RFC 9068 §2.2.3), else `scp` as a
 * list or string (a common variant). Anything else grants nothing (the authenticator refuses a `scope` that is not
 * a string outright).
 */
export function grantedScopes(claims: Readonly<Record<string, unknown>>): string[] {
  const raw =
    claims.scope !== undefined ? (typeof claims.scope === 'string' ? claims.scope : []) : claims.scp;
  const list = typeof raw === 'string' ? raw.split(' ') : Array.isArray(raw) ? raw : [];
  return [...new Set(list.filter((s): s is string => typeof s === 'string' && isScopeToken(s)))];
}

/** The required scopes the grant lacks, in the order they were required (empty = allowed). */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return required.filter((s) => !have.has(s));
}
