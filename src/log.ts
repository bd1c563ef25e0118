/**
 * The structured logger the core writes to. Powertools' Logger satisfies it in the functions and the local
 * server; tests may pass a silent one. Every line carries the request id through `appendKeys` or attributes.
 */
export interface Logger {
  debug(message: string, ...attributes: Record<string, unknown>[]): void;
  info(message: string, ...attributes: Record<string, unknown>[]): void;
  warn(message: string, ...attributes: Record<string, unknown>[]): void;
  error(message: string, ...attributes: Record<string, unknown>[]): void;
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
