import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { BridgeLimits } from './limits.ts';
import { clientText } from '@mcp-lambda/server/auth';
import type { BridgeClient } from './client.ts';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import {
  authorizationResponseUrl,
  deadlineSignal,
  parseParams,
  redirectResponse,
  type Params,
} from './http.ts';
import { consentPage, htmlHeaders, returnPage } from './pages.ts';
import { findRedirectUri, redirectHost, redirectOrigin } from './redirect-uri.ts';
import { grantScopes, resourceAccepted } from './scopes.ts';
import {
  browserBinding,
  consentCovers,
  consentKey,
  invalidRequestPage,
  readConsents,
  toUpstream,
  unverifiedClientPage,
  type Transaction,
} from './transaction.ts';

/**
 * The authorization endpoint (OAuth 2.1 §4.1.1): validate, then show the consent page (or, for a client this
 * browser already consented to, go straight to the upstream sign-in). Until the client and its redirect URI are
 * validated, errors are shown as a page, never redirected (the target could be anyone's, OAuth 2.1 §4.1.2.1);
 * after that, errors go back to the client's redirect URI with `state` and `iss` (RFC 9207): automatically for a
 * client this browser consented to, else through a link on a page (RFC 9700 §4.11.2: registration is open, so a
 * redirect URI is not trusted until the user has trusted its client).
 */

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VSCHAR = /^[\x20-\x7e]*$/;

type Target =
  | { ok: true; client: BridgeClient; redirectUri: string; registered: string; state: string | undefined }
  | { ok: false; response: HttpResponse };

/** The client and where to send the browser back, or the page that says why there is no trusted target. */
async function resolveTarget(
  params: Params,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<Target> {
  const refuse = (error: string, message: string, reason?: string): Target => {
    note.error = error;
    if (reason) note.reason = reason;
    return { ok: false, response: invalidRequestPage(message) };
  };
  const clientId = params.get('client_id');
  if (!clientId || params.duplicates.includes('client_id'))
    return refuse(
      'invalid_request',
      'The application sent no single client_id. Start again from your application.',
    );
  note.client = clientLabel(clientId);
  const resolution = await deps.clients.resolve(
    // Cut (clientText) so an absurd id costs nothing further; a cut one is still too long, and so refused.
    clientText(clientId, BridgeLimits.maxParameterChars + 1),
    deadlineSignal(ctx),
  );
  if (!resolution.ok) {
    const { problem } = resolution;
    if (!problem.temporary)
      return refuse(
        problem.error,
        `The application is not known to this server: ${problem.description}.`,
        problem.description,
      );
    note.error = problem.error;
    note.reason = problem.description;
    return { ok: false, response: unverifiedClientPage(problem.description) };
  }
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri || params.duplicates.includes('redirect_uri'))
    return refuse(
      'invalid_request',
      'The application sent no single redirect_uri. Start again from your application.',
    );
  const registered = findRedirectUri(resolution.client.redirectUris, redirectUri);
  if (!registered)
    return refuse(
      'invalid_request',
      'The address the application wants to be sent back to is not registered for it.',
      'redirect_uri not registered',
    );
  const state = params.get('state');
  if (state !== undefined && state.length > BridgeLimits.maxStateChars)
    return refuse(
      'invalid_request',
      `The application's state parameter is longer than ${BridgeLimits.maxStateChars} characters.`,
    );
  // RFC 6749 Appendix A.5: state is printable ASCII; anything else could not travel back intact at every limit.
  if (state !== undefined && !VSCHAR.test(state))
    return refuse('invalid_request', "The application's state parameter has characters it may not contain.");
  return { ok: true, client: resolution.client, redirectUri, registered, state };
}

/** The request's own problem (an OAuth error code and description for the redirect), or the granted scopes. */
function checkRequest(
  params: Params,
  client: BridgeClient,
  deps: BridgeDeps,
): { error: string; description: string } | { scopes: string[]; challenge: string } {
  if (params.duplicates.length)
    return { error: 'invalid_request', description: 'a parameter was sent more than once' };
  if (params.get('response_type') !== 'code')
    return { error: 'unsupported_response_type', description: 'only response_type=code is supported' };
  if (params.get('code_challenge_method') !== 'S256')
    return { error: 'invalid_request', description: 'PKCE is required with code_challenge_method=S256' };
  const challenge = params.get('code_challenge');
  if (!challenge || !S256_CHALLENGE.test(challenge))
    return {
      error: 'invalid_request',
      description: 'code_challenge must be an S256 challenge (43 base64url characters)',
    };
  const resource = params.get('resource');
  if (resource !== undefined && !resourceAccepted(resource, deps.resource))
    return {
      error: 'invalid_target',
      description: 'this server issues tokens only for its own MCP endpoint',
    };
  const scope = params.get('scope');
  if (scope !== undefined && scope.length > BridgeLimits.maxScopeChars)
    return {
      error: 'invalid_scope',
      description: `scope must be at most ${BridgeLimits.maxScopeChars} characters`,
    };
  return { scopes: grantScopes(scope, deps.scopes, client.grantTypes.includes('refresh_token')), challenge };
}

/** GET /oauth/authorize */
export async function authorize(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const params = parseParams(req.query);
  const target = await resolveTarget(params, ctx, deps, note);
  if (!target.ok) return target.response;
  const { client, redirectUri, registered, state } = target;
  // A consent this browser gave earlier for this client and redirect URI; an upstream session never counts.
  const consent = readConsents(deps, req).find((e) => e.k === consentKey(client.id, registered));
  const checked = checkRequest(params, client, deps);
  if ('error' in checked) {
    note.error = checked.error;
    const location = authorizationResponseUrl(redirectUri, deps.urls.issuer, {
      error: checked.error,
      error_description: checked.description,
      state,
    });
    if (consent) return redirectResponse(location, 302);
    return {
      status: 400,
      headers: htmlHeaders(),
      body: returnPage({
        message: `The application sent an invalid request: ${checked.description}.`,
        returnUrl: location,
        returnHost: redirectHost(redirectUri),
      }),
    };
  }
  const binding = browserBinding(req, deps);
  const transaction: Transaction = {
    c: client.id,
    r: redirectUri,
    ...(state !== undefined ? { s: state } : {}),
    ch: checked.challenge,
    sc: checked.scopes.join(' '),
    rt: client.grantTypes.includes('refresh_token'),
    b: binding.hash,
  };
  // The page is skipped only when the earlier consent covered every scope asked for now.
  if (consent && consentCovers(consent, checked.scopes))
    return toUpstream(transaction, ctx, deps, [binding.cookie], 302);

  const upstreamOrigin = new URL(await deps.upstream.authorizationEndpoint(deadlineSignal(ctx))).origin;
  return {
    status: 200,
    headers: htmlHeaders([upstreamOrigin, new URL(redirectUri).origin]),
    body: consentPage({
      action: deps.urls.consent,
      clientName: client.name,
      clientIdentity:
        client.kind === 'metadata-document' ? client.id : 'registered dynamically with this server',
      redirectOrigin: redirectOrigin(redirectUri),
      refresh: transaction.rt,
      scopes: checked.scopes,
      transaction: deps.sealer.seal('transaction', transaction, BridgeLimits.transactionTtlSeconds),
      resourceName: deps.resourceName,
    }),
    cookies: [binding.cookie],
  };
}
