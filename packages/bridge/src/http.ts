import { createHash, randomBytes } from 'node:crypto';
import type { HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { anySignal, deadlineSignal as beforeDeadline } from '@mcp-lambda/server/auth';
import { BridgeLimits } from './limits.ts';
import { errorPage, htmlHeaders } from './pages.ts';

/** Request parameters (query or form), with the names that appeared more than once (RFC 6749 §3.1: refused). */
export interface Params {
  get(name: string): string | undefined;
  duplicates: string[];
}

/** Parses `application/x-www-form-urlencoded` text (a query string or a form body). */
export function parseParams(raw: string | undefined): Params {
  const search = new URLSearchParams(raw ?? '');
  const seen = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const [name, value] of search) {
    if (seen.has(name)) duplicates.add(name);
    else seen.set(name, value);
  }
  return { get: (name) => seen.get(name), duplicates: [...duplicates] };
}

/** A random token of `bytes` bytes, base64url. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** SHA-256, base64url: how codes, refresh tokens, client ids and browser bindings are stored and compared. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * A signal that fires after `capMs`, or earlier when the invocation is about to run out of time (the one
 * deadline rule of `packages/server/src/deadline.ts`, with the bridge's own reserve).
 */
export function deadlineSignal(ctx: InvocationContext, capMs = BridgeLimits.outboundTimeoutMs): AbortSignal {
  return anySignal(AbortSignal.timeout(capMs), beforeDeadline(ctx.deadline, BridgeLimits.reserveMs))!;
}

/** A JSON response that no cache may keep (every token, registration and error response). */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'access-control-allow-origin': '*',
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

/** A public JSON document (metadata, keys) that clients and browsers may cache briefly. */
export function documentResponse(body: unknown): HttpResponse {
  return {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
      'access-control-allow-origin': '*',
    },
    body: JSON.stringify(body),
  };
}

/** A redirect; 303 after a form POST so the browser follows with GET. */
export function redirectResponse(location: string, status: 302 | 303, cookies: string[] = []): HttpResponse {
  return {
    status,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    body: '',
    ...(cookies.length ? { cookies } : {}),
  };
}

/** An error page (the browser stays here: the redirect target could not be trusted). */
export function pageResponse(status: number, title: string, message: string): HttpResponse {
  return { status, headers: htmlHeaders(), body: errorPage(title, message) };
}

/**
 * The authorization response (OAuth 2.1 §4.1.2, RFC 9207): parameters added to the redirect URI's own query,
 * `iss` always included, the client's `state` echoed exactly when it sent one.
 */
export function authorizationResponseUrl(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.append(name, value);
  url.searchParams.append('iss', issuer);
  return url.href;
}
