/**
 * The administration routes of a running `npm start` (`/_local/…`: sign a user out, disable the development user),
 * as `signout --local` and `local-user` call them: only on this machine, never following a redirect elsewhere, and
 * what the server answers shown capped and escaped.
 */
import { Defaults } from '@mcp-lambda/server/limits';
import { port } from './local-settings.ts';

/** The hosts `npm start` answers on: it listens on 127.0.0.1. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Text from elsewhere as one line: at most 200 characters, quoted, control and direction characters escaped. */
export const shown = (text: unknown): string =>
  JSON.stringify(String(text).slice(0, 200)).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * The URL of `npm start` a command talks to: the one given, which must be http on a loopback host, or the one
 * `PORT` gives it (checked as `npm start` checks it).
 */
export function localServer(given: string | undefined, env: NodeJS.ProcessEnv = process.env): URL {
  if (given === undefined) {
    const number = port(env, 'PORT', Defaults.localPort);
    if (number === 0) throw new Error('PORT is 0 (any free port): name the URL npm start printed');
    return new URL(`http://127.0.0.1:${number}`);
  }
  const url = URL.canParse(given) ? new URL(given) : undefined;
  const local = url && url.protocol === 'http:' && LOOPBACK.has(url.hostname) && url.port !== '';
  if (!local || url.username || url.password)
    throw new Error(
      `the URL must be npm start's on this machine, such as http://127.0.0.1:3000, not ${shown(given)}`,
    );
  return url;
}

/** POSTs to an administration route of the local server; its status and JSON body (empty when it sent none). */
export async function postLocalAdmin(
  server: URL,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(new URL(path, server), {
    method: 'POST',
    headers: { 'x-mcp-local-admin': '1' },
    redirect: 'error',
    signal: AbortSignal.timeout(5_000),
  }).catch((error: unknown) => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`no answer from ${server.origin} (${shown(why)})`);
  });
  const body: unknown = await res.json().catch(() => ({}));
  return {
    status: res.status,
    body: body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {},
  };
}
