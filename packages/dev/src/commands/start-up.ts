/**
 * How `npm start` reports its start-up: JSON lines on stdout while it goes well, and one line on stderr, with no
 * stack trace, when it cannot go on (a busy port, an invalid setting), then exit status 1.
 */
import type { LocalPorts } from './local-settings.ts';

/** One JSON line on stdout, as the function's own log lines are. */
export const log = (message: string, fields: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ level: 'INFO', message, ...fields }));

/** Stops start-up with one line saying what to do, and no stack trace. */
export function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

/** A setting read, or start-up stopped with the message of what is wrong with it. */
export function orFail<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    fail((error as Error).message);
  }
}

export const inUse = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE';

/** Runs one start-up step; a busy port or any other failure ends start-up with one line. */
export async function step<T>(run: () => Promise<T>, busy: string, what: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    fail(inUse(error) ? busy : `cannot start ${what}: ${(error as Error).message}`);
  }
}

/** The line for a busy port: the setting that names it, and what to do. */
export const busyPort = (
  name: keyof LocalPorts,
  port: number,
  hint = 'choose another one, or 0 for any free port',
) => `${name} ${port} on 127.0.0.1 is already in use; ${hint}`;
