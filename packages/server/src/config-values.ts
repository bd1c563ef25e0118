import { isScopeToken } from './auth/scopes.ts';
import { isSecureUrl } from './auth/urls.ts';

/**
 * The value readers of the configuration module (config.ts): each reads one variable of the environment it is
 * given, validates it and throws naming the variable. Only config.ts calls them, with the process environment.
 */

/** The environment configuration is read from. */
export type Env = Readonly<Record<string, string | undefined>>;

/** An integer within [min, max]; `fallback` when unset. */
export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(
      `Configuration: ${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`,
    );
  }
  return value;
}

/** A comma-separated list whose entries match `entry` (or are `*`); undefined when unset. */
export function list(env: Env, name: string, entry: RegExp): string[] | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const values = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = values.find((v) => v !== '*' && !entry.test(v));
  if (bad !== undefined)
    throw new Error(`Configuration: ${name} has an invalid entry ${JSON.stringify(bad)}`);
  return values;
}

/** A string (matching `pattern` when given); `fallback` when unset or empty. */
export function str(env: Env, name: string, fallback: string, pattern?: RegExp): string {
  const value = env[name] || fallback;
  if (pattern && !pattern.test(value))
    throw new Error(`Configuration: ${name} has an invalid value ${JSON.stringify(value)}`);
  return value;
}

/** `on`/`true` or `off`/`false`; `fallback` when unset. */
export function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === 'true') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new Error(`Configuration: ${name} must be "on" or "off" (got ${JSON.stringify(env[name])})`);
}

/** One of `values`, case and surrounding spaces ignored (`aliases`: other accepted spellings); `fallback` when unset. */
export function oneOf<T extends string>(
  env: Env,
  name: string,
  values: readonly T[],
  fallback: T,
  aliases: Readonly<Record<string, T>> = {},
): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  const value = Object.hasOwn(aliases, raw) ? aliases[raw]! : raw;
  if (!(values as readonly string[]).includes(value))
    throw new Error(
      `Configuration: ${name} must be one of ${values.join(', ')} (got ${JSON.stringify(env[name])})`,
    );
  return value as T;
}

/** An https URL (http on loopback) without query or fragment; undefined when unset. */
export function url(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (!isSecureUrl(value))
    throw new Error(
      `Configuration: ${name} must be an https URL without query or fragment (http only on loopback); got ${JSON.stringify(value)}`,
    );
  return value;
}

/** Scopes separated by commas or spaces. */
export function scopes(env: Env, name: string): string[] {
  const values = [...new Set((env[name] ?? '').split(/[\s,]+/).filter(Boolean))];
  const bad = values.find((v) => !isScopeToken(v));
  if (bad !== undefined)
    throw new Error(`Configuration: ${name} has an invalid scope ${JSON.stringify(bad)}`);
  return values;
}

/** A secret long enough to key AES-256 through a hash: at least 32 characters. */
export function secret(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (value.length < 32) throw new Error(`Configuration: ${name} must be at least 32 characters`);
  return value;
}
