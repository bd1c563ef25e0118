/**
 * The bearer token of a scenario run, got once before the load: read from a file, printed by a command, or granted
 * by an OAuth token endpoint to client credentials (the secret read from an environment variable, never from the
 * file). A token that cannot be got stops the run before it starts, with the reason.
 */
import { exec } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { PreflightError } from '../preflight.ts';
import type { Auth } from './types.ts';

const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/** The one line a token is: anything else (empty, several lines) is refused, as a header could not carry it. */
function tokenFrom(text: string, from: string): string {
  const token = text.trim();
  if (token === '') throw new PreflightError(`auth: ${from} gave an empty token`);
  if (/[\r\n]/.test(token)) throw new PreflightError(`auth: ${from} gave more than one line`);
  return token;
}

async function fromFile(path: string): Promise<string> {
  try {
    return tokenFrom(await readFile(path, 'utf8'), path);
  } catch (error) {
    if (error instanceof PreflightError) throw error;
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new PreflightError(`auth: cannot read the token file ${path} (${code})`);
  }
}

async function fromCommand(command: string, timeoutS: number): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await promisify(exec)(command, { timeout: timeoutS * 1000, encoding: 'utf8' }));
  } catch (error) {
    const { code, stderr } = error as { code?: unknown; stderr?: string };
    const why = stderr?.trim().split('\n')[0] || (error as Error).message.split('\n')[0];
    throw new PreflightError(`auth: the token command failed (exit ${String(code)}): ${clip(why ?? '')}`);
  }
  return tokenFrom(stdout, 'the token command');
}

type Grant = Extract<Auth, { type: 'client-credentials' }>;

/** The token endpoint's request: the grant, and the client's credentials in the header or the body. */
function grantRequest(grant: Grant, secret: string): { headers: Record<string, string>; body: string } {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (grant.scope !== undefined) form.set('scope', grant.scope);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (grant.clientAuth === 'post') {
    form.set('client_id', grant.clientId);
    form.set('client_secret', secret);
  } else {
    // RFC 6749 2.3.1: each part form-encoded before the Basic scheme joins them.
    const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
    const pair = `${encode(grant.clientId)}:${encode(secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  }
  return { headers, body: form.toString() };
}

async function fromClientCredentials(grant: Grant, timeoutS: number): Promise<string> {
  const secret = process.env[grant.secretEnv];
  if (!secret) throw new PreflightError(`auth: the environment variable ${grant.secretEnv} is not set`);
  let response: Response;
  try {
    response = await fetch(grant.tokenUrl, {
      method: 'POST',
      ...grantRequest(grant, secret),
      signal: AbortSignal.timeout(timeoutS * 1000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new PreflightError(
      `auth: cannot reach ${grant.tokenUrl}: ${cause?.code ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Said below: a grant is a JSON object with an access token.
  }
  if (!response.ok || typeof body.access_token !== 'string') {
    const why =
      typeof body.error === 'string' ? `: ${body.error} ${String(body.error_description ?? '')}` : '';
    throw new PreflightError(
      `auth: the token endpoint answered HTTP ${response.status} without an access token${clip(why.trimEnd())}`,
    );
  }
  if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer')
    throw new PreflightError(
      `auth: the token endpoint granted a ${body.token_type} token, not a bearer token`,
    );
  return tokenFrom(body.access_token, 'the token endpoint');
}

/** The bearer token `auth` names, got once; a PreflightError says why there is none. */
export function bearerToken(auth: Auth, timeoutS: number): Promise<string> {
  switch (auth.type) {
    case 'file':
      return fromFile(auth.path);
    case 'command':
      return fromCommand(auth.command, timeoutS);
    case 'client-credentials':
      return fromClientCredentials(auth, timeoutS);
  }
}
