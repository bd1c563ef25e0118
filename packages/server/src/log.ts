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

/** Levels of `jsonLogger`, lowest first; `SILENT` writes nothing. */
export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Lowest level the functions log, from the environment they pass (as `loadBridgeConfig` takes it):
 * `POWERTOOLS_LOG_LEVEL` (the name Powertools reads, kept so existing settings work), else `LOG_LEVEL`, else
 * Lambda's log controls (`AWS_LAMBDA_LOG_LEVEL`), else INFO. `TRACE` reads as DEBUG and `CRITICAL` as ERROR, as
 * Powertools reads them; anything else as INFO.
 */
export function loadLogLevel(env: Readonly<Record<string, string | undefined>>): LogLevel {
  const named = (env.POWERTOOLS_LOG_LEVEL || env.LOG_LEVEL || env.AWS_LAMBDA_LOG_LEVEL || '').toUpperCase();
  const level = named === 'TRACE' ? 'DEBUG' : named === 'CRITICAL' ? 'ERROR' : named;
  return LOG_LEVELS.find((l) => l === level) ?? 'INFO';
}

/** Options of `jsonLogger`. */
export interface JsonLoggerOptions {
  /** `service` of every line. */
  serviceName: string;
  /** Lowest level written (`loadLogLevel` reads it from the environment). */
  level: LogLevel;
  /** Writes one line; defaults to stdout (DEBUG, INFO) and stderr (WARN, ERROR), as Powertools' Logger does. */
  write?: (level: Exclude<LogLevel, 'SILENT'>, line: string) => void;
  /** The X-Ray trace header of the current invocation (Lambda sets `_X_AMZN_TRACE_ID` per invocation). */
  traceHeader?: () => string | undefined;
  /** `trace_id` and `span_id` of the current OpenTelemetry context, put on every line written inside it. */
  traceFields?: () => { trace_id: string; span_id: string } | undefined;
}

/**
 * Writes a line to fd 1 (DEBUG, INFO) or 2 (WARN, ERROR) directly: creating `process.stdout` costs about 1 ms, on
 * the first request's line. A descriptor that refuses (EAGAIN on a non-blocking pipe) gets the rest through the
 * stream, which queues it.
 */
function writeStd(level: string, line: string): void {
  // Not `import { writeSync } from 'node:fs'`: an ESM import of `fs` reads every export, which loads
  // `fs/promises`, the streams and readline (about 4 ms of a cold start); the builtin itself is already loaded.
  const { writeSync } = process.getBuiltinModule('node:fs');
  const toStderr = level === 'WARN' || level === 'ERROR';
  const bytes = Buffer.from(line);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(toStderr ? 2 : 1, bytes, written);
  } catch {
    (toStderr ? process.stderr : process.stdout).write(bytes.subarray(written));
  }
}
// Read per line, not once: the Lambda runtime sets it anew for every invocation.
const lambdaTraceHeader = () => process.env._X_AMZN_TRACE_ID;

/**
 * Structured JSON logs, one line per entry, in the shape of Powertools' Logger (`level`, `message`, `timestamp`,
 * `service`, `xray_trace_id`, then the entry's attributes at the top level), so Lambda's JSON log controls and
 * CloudWatch Logs Insights queries read them alike. Why not Powertools' Logger itself: importing and constructing it
 * costs about 9 ms of a cold start (it loads `node:crypto` and `node:console` and sets up features this template does
 * not use), more than the rest of the MCP function's start-up together.
 */
export function jsonLogger(options: JsonLoggerOptions): Logger {
  const {
    serviceName,
    level: threshold,
    write = writeStd,
    traceHeader = lambdaTraceHeader,
    traceFields,
  } = options;
  const lowest = LOG_LEVELS.indexOf(threshold);
  const entry =
    (level: Exclude<LogLevel, 'SILENT'>) =>
    (message: string, ...attributes: Record<string, unknown>[]) => {
      if (LOG_LEVELS.indexOf(level) < lowest) return;
      const root = /Root=([^;]+)/.exec(traceHeader() ?? '')?.[1];
      const head = {
        level,
        message,
        timestamp: new Date().toISOString(),
        service: serviceName,
        ...(root ? { xray_trace_id: root } : {}),
        ...traceFields?.(),
      };
      write(level, `${lineOf(Object.assign(head, ...attributes))}\n`);
    };
  return { debug: entry('DEBUG'), info: entry('INFO'), warn: entry('WARN'), error: entry('ERROR') };
}

/** One entry as JSON; an attribute JSON cannot hold (a cycle, a BigInt) costs that attribute, never the line. */
function lineOf(fields: Record<string, unknown>): string {
  const replacer = (_key: string, value: unknown) =>
    value instanceof Error
      ? errorFields(value, { stack: true })
      : typeof value === 'bigint'
        ? String(value)
        : value;
  try {
    return JSON.stringify(fields, replacer);
  } catch {
    const { level, message, timestamp, service } = fields;
    return JSON.stringify({ level, message, timestamp, service, log_error: 'attributes not serializable' });
  }
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
