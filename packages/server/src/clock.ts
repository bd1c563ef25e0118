/**
 * Milliseconds on a monotonic clock, for durations. Not `performance.now()`: the first use of the `performance`
 * global loads Node's perf_hooks modules, about 1 ms that the first request of every cold start would pay.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
