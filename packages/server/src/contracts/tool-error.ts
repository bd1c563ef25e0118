/**
 * Throw this from a handler for an expected failure: its message goes to the model as an `isError` result,
 * so write it as advice ("b must not be 0; pass a non-zero divisor"). Any other thrown error is reported
 * with a generic message and logged, so internals never leak.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
