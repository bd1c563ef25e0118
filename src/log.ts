import { clientText } from './protocol/client-text.ts';

/**
 * The structured logger the core writes to. Powertools' Logger satisfies it in the functions and the local
 * server; tests may pass a silent one. Every line of a request carries its request id (`withKeys`).
 */
export interface Logger {
  debug(message: string, ...attributes: Record<string, unknown>[]): void;
  info(message: string, ...attributes: Record<string, unknown>[]): void;
  warn(message: string, ...attributes: Record<string, unknown>[]): void;
  error(message: string, ...attributes: Record<string, unknown>[]): void;
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A logger whose every line also carries `keys` (e.g. the invocation's request id). */
export function withKeys(log: Logger, keys: Readonly<Record<string, unknown>>): Logger {
  // One merged attributes object per line: the logger then serializes a single object (cheap on the hot path).
  const merged = (a: Record<string, unknown>[]) => (a.length ? Object.assign({}, keys, ...a) : keys);
  return {
    debug: (m, ...a) => log.debug(m, merged(a)),
    info: (m, ...a) => log.info(m, merged(a)),
    warn: (m, ...a) => log.warn(m, merged(a)),
    error: (m, ...a) => log.error(m, merged(a)),
  };
}

/** Most characters of an error's message, and of its stack, in a log line: messages may quote client input. */
const ERROR_MESSAGE_MAX_CHARS = 1024;
const ERROR_STACK_MAX_CHARS = 4096;

/**
 * How an error appears in a log line: name and message, and the stack only when asked for (unexpected errors).
 * Both are capped, because a tool's error message may quote its arguments, and one log line must stay small.
 */
export function errorFields(
  error: unknown,
  options: { stack?: boolean } = {},
): { name: string; message: string; stack?: string } {
  if (!(error instanceof Error))
    return { name: 'Error', message: clientText(String(error), ERROR_MESSAGE_MAX_CHARS) };
  return {
    name: clientText(error.name),
    message: clientText(error.message, ERROR_MESSAGE_MAX_CHARS),
    ...(options.stack && error.stack ? { stack: clientText(error.stack, ERROR_STACK_MAX_CHARS) } : {}),
  };
}
