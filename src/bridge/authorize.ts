import { createHash } from 'node:crypto';
import type { HttpRequest, HttpResponse, InvocationContext } from '../http/types.ts';
import { BridgeLimits } from '../limits.ts';
import type { BridgeClient } from './client.ts';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import {
  authorizationResponseUrl,
  capped,
  deadlineSignal,
  pageResponse,
  parseParams,
  randomToken,
  redirectResponse,
  sha256,
} from './http.ts';
import { consentPage, htmlHeaders } from './pages.ts';
import { findRedirectUri, redirectHost } from './redirect-uri.ts';
import { grantScopes, resourceAccepted } from './scopes.ts';

/**
 * The browser side of the bridge: the authorization endpoint (validate, then consent or straight to sign-in),
 * the consent form, and the callback from the upstream sign-in that ends in the client's redirect with a code.
 *
 * Until the client and its redirect URI are validated, errors are shown as a page (never redirected: the target
 * could be anyone's, OAuth 2.1 §4.1.2.1); after that, errors go back to the client's redirect URI with `state` and
 * `iss`. The transaction travels sealed (in the consent form, then as the upstream `state`) and is bound to the
 * browser that started it by a random cookie whose hash it carries.
 */

/** The sealed authorization transaction. */
interface Transaction {
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
  /** hash of the browser binding cookie */
  b: string;
}

/** The upstream leg: the transaction plus our own PKCE verifier and nonce for the upstream provider. */
interface UpstreamState extends Transaction {
  v: string;
  o: string;
}

const BINDING = /^[A-Za-z0-9_-]{43}$/;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function isTransaction(value: unknown): value is Transaction {
  const t = value as Transaction;
  return (
    typeof t === 'object' &&
    t !== null &&
    typeof t.c === 'string' &&
    typeof t.r === 'string' &&
    (t.s === undefined || typeof t.s === 'string') &&
    typeof t.ch === 'string' &&
    typeof t.sc === 'string' &&
    typeof t.b === 'string'
  );
}

/** The key under which a browser's consent for a client (and the redirect URI it registered) is remembered. */
const consentKey = (clientId: string, registeredRedirect: string) =>
  sha256(`${clientId}\u0000${registeredRedirect}`).slice(0, 22);

interface ConsentEntry {
  k: string;
  e: number;
}

function readConsents(deps: BridgeDeps, req: HttpRequest): ConsentEntry[] {
  const raw = deps.cookies.read(req.cookies, 'consent');
  const value = raw ? deps.sealer.open('consent', raw) : undefined;
  if (!Array.isArray(value)) return [];
  const now = deps.now();
  return value.filter(
    (e): e is ConsentEntry => typeof e?.k === 'string' && typeof e?.e === 'number' && e.e > now,
  );
}

const page400 = (message: string) => pageResponse(400, 'This sign-in request cannot be used', message);

/** GET /oauth/authorize */
export async function authorize(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const params = parseParams(req.query);
  const clientId = params.get('client_id');
  if (!clientId || params.duplicates.includes('client_id')) {
    note.error = 'invalid_request';
    return page400('The application sent no single client_id. Start again from your application.');
  }
  const resolution = await deps.clients.resolve(
    capped(clientId, BridgeLimits.maxParameterChars + 1),
    deadlineSignal(ctx),
  );
  note.client = clientLabel(clientId);
  if (!resolution.ok) {
    note.error = resolution.problem.error;
    note.reason = resolution.problem.description;
    return resolution.problem.temporary
      ? pageResponse(
          400,
          'The application could not be verified',
          `Its client metadata could not be used: ${resolution.problem.description}.`,
        )
      : page400(`The application is not known to this server: ${resolution.problem.description}.`);
  }
  const client = resolution.client;
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri || params.duplicates.includes('redirect_uri')) {
    note.error = 'invalid_request';
    return page400('The application sent no single redirect_uri. Start again from your application.');
  }
  const registered = findRedirectUri(client.redirectUris, redirectUri);
  if (!registered) {
    note.error = 'invalid_request';
    note.reason = 'redirect_uri not registered';
    return page400('The address the application wants to be sent back to is not registered for it.');
  }
  const state = params.get('state');
  if (state !== undefined && state.length > BridgeLimits.maxStateChars) {
    note.error = 'invalid_request';
    return page400(
      `The application's state parameter is longer than ${BridgeLimits.maxStateChars} characters.`,
    );
  }

  // From here on the redirect URI is trusted: errors go back to the client (with state and iss).
  const fail = (error: string, description: string) => {
    note.error = error;
    return redirectResponse(
      authorizationResponseUrl(redirectUri, deps.urls.issuer, {
        error,
        error_description: description,
        state,
      }),
      302,
    );
  };
  if (params.duplicates.length) return fail('invalid_request', 'a parameter was sent more than once');
  if (params.get('response_type') !== 'code')
    return fail('unsupported_response_type', 'only response_type=code is supported');
  if (params.get('code_challenge_method') !== 'S256')
    return fail('invalid_request', 'PKCE is required with code_challenge_method=S256');
  const challenge = params.get('code_challenge');
  if (!challenge || !S256_CHALLENGE.test(challenge))
    return fail('invalid_request', 'code_challenge must be an S256 challenge (43 base64url characters)');
  const resource = params.get('resource');
  if (resource !== undefined && !resourceAccepted(resource, deps.resource))
    return fail('invalid_target', 'this server issues tokens only for its own MCP endpoint');
  const scope = params.get('scope');
  if (scope !== undefined && scope.length > BridgeLimits.maxScopeChars)
    return fail('invalid_scope', `scope must be at most ${BridgeLimits.maxScopeChars} characters`);
  const granted = grantScopes(scope, deps.scopes, client.grantTypes.includes('refresh_token'));

  const existing = deps.cookies.read(req.cookies, 'binding');
  const binding = existing && BINDING.test(existing) ? existing : randomToken();
  const bindingCookie = deps.cookies.write('binding', binding, BridgeLimits.transactionTtlSeconds);
  const transaction: Transaction = {
    c: client.id,
    r: redirectUri,
    ...(state !== undefined ? { s: state } : {}),
    ch: challenge,
    sc: granted.join(' '),
    b: sha256(binding),
  };

  // A consent this browser gave earlier for this client skips the page; an upstream session never does.
  const key = consentKey(client.id, registered);
  if (readConsents(deps, req).some((e) => e.k === key))
    return toUpstream(transaction, ctx, deps, [bindingCookie], 302);

  const upstreamOrigin = new URL(await deps.upstream.authorizationEndpoint(deadlineSignal(ctx))).origin;
  return {
    status: 200,
    headers: htmlHeaders([upstreamOrigin, new URL(redirectUri).origin]),
    body: consentPage({
      action: deps.urls.consent,
      clientName: client.name,
      clientIdentity: identity(client),
      redirectHost: redirectHost(redirectUri),
      scopes: granted,
      transaction: deps.sealer.seal('transaction', transaction, BridgeLimits.transactionTtlSeconds),
      resourceName: deps.resourceName,
    }),
    cookies: [bindingCookie],
  };
}

function identity(client: BridgeClient): string {
  return client.kind === 'metadata-document' ? client.id : 'registered dynamically with this server';
}

/** Sends the browser to the upstream sign-in with our own PKCE, nonce and the sealed transaction as state. */
async function toUpstream(
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
      codeChallenge: s256(verifier),
    },
    deadlineSignal(ctx),
  );
  return redirectResponse(location, status, cookies);
}

/** Whether a form POST comes from a page of this bridge (Origin / Fetch Metadata; SameSite covers the rest). */
function sameOrigin(req: HttpRequest, issuer: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== new URL(issuer).origin) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** POST /oauth/consent */
export async function consent(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  if (!sameOrigin(req, deps.urls.issuer)) {
    note.error = 'csrf';
    return pageResponse(403, 'Request refused', 'This form can only be sent from this sign-in page.');
  }
  const form = parseParams(req.body);
  const sealed = form.get('transaction');
  const transaction = sealed && !form.duplicates.length ? deps.sealer.open('transaction', sealed) : undefined;
  if (!isTransaction(transaction)) {
    note.error = 'invalid_request';
    return page400('This sign-in request is invalid or has expired. Start again from your application.');
  }
  note.client = clientLabel(transaction.c);
  const binding = deps.cookies.read(req.cookies, 'binding');
  if (!binding || sha256(binding) !== transaction.b) {
    note.error = 'csrf';
    return pageResponse(
      403,
      'Request refused',
      'This sign-in was started in another browser, or its cookie has expired. Start again from your application.',
    );
  }
  const decision = form.get('decision');
  if (decision === 'deny') {
    note.error = 'access_denied';
    return redirectResponse(
      authorizationResponseUrl(transaction.r, deps.urls.issuer, {
        error: 'access_denied',
        error_description: 'the user denied access',
        state: transaction.s,
      }),
      303,
    );
  }
  if (decision !== 'allow') {
    note.error = 'invalid_request';
    return page400('Choose Allow or Deny.');
  }
  // Remember the consent in this browser, for this client and the redirect URI it registered.
  const resolution = await deps.clients.resolve(transaction.c, deadlineSignal(ctx));
  const cookies: string[] = [];
  if (resolution.ok) {
    const registered = findRedirectUri(resolution.client.redirectUris, transaction.r);
    if (!registered) {
      note.error = 'invalid_request';
      return page400('The address the application wants to be sent back to is no longer registered for it.');
    }
    const key = consentKey(transaction.c, registered);
    const entries = [
      ...readConsents(deps, req).filter((e) => e.k !== key),
      { k: key, e: deps.now() + BridgeLimits.consentTtlSeconds },
    ].slice(-BridgeLimits.consentEntries);
    cookies.push(
      deps.cookies.write(
        'consent',
        deps.sealer.seal('consent', entries, BridgeLimits.consentTtlSeconds),
        BridgeLimits.consentTtlSeconds,
      ),
    );
  }
  return toUpstream(transaction, ctx, deps, cookies, 303);
}

/** GET /oauth/callback: the upstream sign-in's answer. */
export async function callback(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const params = parseParams(req.query);
  const sealed = params.get('state');
  const opened = sealed && !params.duplicates.length ? deps.sealer.open('upstream-state', sealed) : undefined;
  const state = opened as UpstreamState | undefined;
  if (!isTransaction(state) || typeof state.v !== 'string' || typeof state.o !== 'string') {
    note.error = 'invalid_request';
    return page400('This sign-in response is invalid or has expired. Start again from your application.');
  }
  note.client = clientLabel(state.c);
  const binding = deps.cookies.read(req.cookies, 'binding');
  if (!binding || sha256(binding) !== state.b) {
    note.error = 'csrf';
    return pageResponse(
      403,
      'Request refused',
      'This sign-in was started in another browser, or its cookie has expired. Start again from your application.',
    );
  }
  const back = (error: string, description: string) => {
    note.error = error;
    return redirectResponse(
      authorizationResponseUrl(state.r, deps.urls.issuer, {
        error,
        error_description: description,
        state: state.s,
      }),
      302,
    );
  };
  const upstreamError = params.get('error');
  if (upstreamError !== undefined)
    return upstreamError === 'access_denied'
      ? back('access_denied', 'the sign-in was cancelled or refused')
      : back('temporarily_unavailable', 'the sign-in provider reported an error');
  const code = params.get('code');
  if (!code || code.length > BridgeLimits.maxParameterChars)
    return back('server_error', 'the sign-in provider returned no code');

  const identity = await deps.upstream.redeem(
    { code, redirectUri: deps.urls.callback, codeVerifier: state.v, nonce: state.o, iss: params.get('iss') },
    deadlineSignal(ctx),
  );
  if (!identity.ok) {
    note.reason = identity.reason;
    return identity.temporary
      ? back('temporarily_unavailable', 'the sign-in provider could not be reached; try again')
      : back('access_denied', 'the sign-in could not be verified');
  }

  const authorizationCode = randomToken();
  const now = deps.now();
  await deps.store.saveCode(
    sha256(authorizationCode),
    {
      clientHash: sha256(state.c),
      redirectUri: state.r,
      codeChallenge: state.ch,
      scope: state.sc,
      subject: identity.subject,
      resource: deps.resource,
      expiresAt: now + BridgeLimits.codeTtlSeconds,
    },
    // The used code is kept a day, so a replay is recognised (and revokes what it issued) rather than unknown.
    now + 86_400,
    deadlineSignal(ctx),
  );
  return redirectResponse(
    authorizationResponseUrl(state.r, deps.urls.issuer, { code: authorizationCode, state: state.s }),
    302,
  );
}
