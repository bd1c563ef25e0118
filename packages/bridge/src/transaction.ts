import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { BridgeLimits } from './limits.ts';
import type { BridgeDeps } from './endpoints.ts';
import { deadlineSignal, pageResponse, randomToken, redirectResponse, sha256 } from './http.ts';

/**
 * The authorization transaction between the client's request and the upstream callback. It travels sealed (in
 * the consent form, then as the upstream `state`) and is bound to the browser that started it: the browser holds
 * a random binding cookie, the transaction carries its hash, and every step compares them.
 */

/** The sealed authorization transaction. */
export interface Transaction {
  /** client_id */
  c: string;
  /** redirect_uri as presented */
  r: string;
  /** the client's state, if any */
  s?: string;
  /** PKCE S256 challenge */
  ch: string;
  /** granted scopes, space-separated */
  sc: string;
  /** whether the client registered the refresh_token grant (a metadata document client is not looked up again) */
  rt: boolean;
  /** hash of the browser binding cookie */
  b: string;
}

/** The upstream leg: the transaction plus our own PKCE verifier and nonce for the upstream provider. */
export interface UpstreamState extends Transaction {
  v: string;
  o: string;
}

const BINDING = /^[A-Za-z0-9_-]{43}$/;

export function isTransaction(value: unknown): value is Transaction {
  const t = value as Transaction;
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof t.c === 'string' &&
    typeof t.r === 'string' &&
    (t.s === undefined || typeof t.s === 'string') &&
    typeof t.ch === 'string' &&
    typeof t.sc === 'string' &&
    typeof t.rt === 'boolean' &&
    typeof t.b === 'string'
  );
}

export function isUpstreamState(value: unknown): value is UpstreamState {
  const t = value as UpstreamState;
  return isTransaction(value) && typeof t.v === 'string' && typeof t.o === 'string';
}

/**
 * The browser's binding: the value of its binding cookie if it has a well-formed one (so parallel sign-ins in
 * two tabs share it), else a new random one; and the Set-Cookie that (re)sets it for the transaction's lifetime.
 */
export function browserBinding(req: HttpRequest, deps: BridgeDeps): { hash: string; cookie: string } {
  const existing = deps.cookies.read(req.cookies, 'binding');
  const binding = existing && BINDING.test(existing) ? existing : randomToken();
  return {
    hash: sha256(binding),
    cookie: deps.cookies.write('binding', binding, BridgeLimits.transactionTtlSeconds),
  };
}

/** Whether the request comes from the browser the transaction was started in. */
export function sameBrowser(req: HttpRequest, deps: BridgeDeps, transaction: Transaction): boolean {
  const binding = deps.cookies.read(req.cookies, 'binding');
  return binding !== undefined && sha256(binding) === transaction.b;
}

/** Whether a form POST comes from a page of this bridge (Origin / Fetch Metadata; SameSite covers the rest). */
export function sameOrigin(req: HttpRequest, issuer: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== new URL(issuer).origin) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

export const invalidRequestPage = (message: string) =>
  pageResponse(400, 'This sign-in request cannot be used', message);

/**
 * A client whose metadata document could not be fetched just now (a temporary problem, not proof it is invalid):
 * said as that, never as a client that is not registered.
 */
export const unverifiedClientPage = (description: string) =>
  pageResponse(
    400,
    'The application could not be verified',
    `Its client metadata could not be used: ${description}.`,
  );

export const otherBrowserPage = () =>
  pageResponse(
    403,
    'Request refused',
    'This sign-in was started in another browser, or its cookie has expired. Start again from your application.',
  );

/** The key under which a browser's consent for a client (and the redirect URI it registered) is remembered. */
export const consentKey = (clientId: string, registeredRedirect: string) =>
  sha256(`${clientId}\u0000${registeredRedirect}`).slice(0, 22);

/** One remembered consent: which client and redirect URI, until when, and the scopes the user was shown. */
export interface ConsentEntry {
  k: string;
  e: number;
  /** The scopes consented to, space-separated: a request for more shows the consent page again. */
  s: string;
}

/** The unexpired consents this browser's (sealed) consent cookie lists. */
export function readConsents(deps: BridgeDeps, req: HttpRequest): ConsentEntry[] {
  const raw = deps.cookies.read(req.cookies, 'consent');
  const value = raw ? deps.sealer.open('consent', raw) : undefined;
  if (!Array.isArray(value)) return [];
  const now = deps.now();
  return value.filter(
    (e): e is ConsentEntry =>
      typeof e?.k === 'string' && typeof e?.e === 'number' && e.e > now && typeof e?.s === 'string',
  );
}

/** Whether a remembered consent covers every one of `scopes`. */
export const consentCovers = (entry: ConsentEntry, scopes: readonly string[]) =>
  scopes.every((scope) => entry.s.split(' ').includes(scope));

/**
 * The consent cookie with `key` added for `scopes` (joined with what was consented before for it; most recent
 * last, oldest dropped beyond the cap).
 */
export function rememberConsent(
  deps: BridgeDeps,
  req: HttpRequest,
  key: string,
  scopes: readonly string[],
): string {
  const earlier = readConsents(deps, req);
  const before = earlier.find((e) => e.k === key)?.s.split(' ') ?? [];
  const granted = [...new Set([...before, ...scopes])].filter(Boolean).join(' ');
  const entries = [
    ...earlier.filter((e) => e.k !== key),
    { k: key, e: deps.now() + BridgeLimits.consentTtlSeconds, s: granted },
  ].slice(-BridgeLimits.consentEntries);
  return deps.cookies.write(
    'consent',
    deps.sealer.seal('consent', entries, BridgeLimits.consentTtlSeconds),
    BridgeLimits.consentTtlSeconds,
  );
}

/** Sends the browser to the upstream sign-in with our own PKCE, nonce and the sealed transaction as state. */
export async function toUpstream(
  transaction: Transaction,
  ctx: InvocationContext,
  deps: BridgeDeps,
  cookies: string[],
  status: 302 | 303,
): Promise<HttpResponse> {
  const verifier = randomToken();
  const nonce = randomToken(16);
  const sealed: UpstreamState = { ...transaction, v: verifier, o: nonce };
  const location = await deps.upstream.authorizationUrl(
    {
      redirectUri: deps.urls.callback,
      state: deps.sealer.seal('upstream-state', sealed, BridgeLimits.transactionTtlSeconds),
      nonce,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    },
    deadlineSignal(ctx),
  );
  return redirectResponse(location, status, cookies);
}
