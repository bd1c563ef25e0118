import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { BridgeLimits } from './limits.ts';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import {
  authorizationResponseUrl,
  deadlineSignal,
  parseParams,
  randomToken,
  redirectResponse,
  sha256,
} from './http.ts';
import {
  invalidRequestPage,
  isUpstreamState,
  otherBrowserPage,
  sameBrowser,
  type UpstreamState,
} from './transaction.ts';
import { sealUpstreamToken } from './upstream-session.ts';

/**
 * The upstream sign-in's answer: open the sealed state (a tampered or expired one is a page, never a redirect),
 * check it came back to the browser that left, redeem the upstream code and verify its ID token, then issue our
 * own single-use authorization code (carrying the provider's refresh token, sealed) and send the browser to the
 * client with it, `state` and `iss`.
 */

const saveRetentionSeconds = 86_400;

async function issueCode(
  state: UpstreamState,
  identity: { subject: string; refreshToken: string | undefined },
  ctx: InvocationContext,
  deps: BridgeDeps,
) {
  const { subject, refreshToken } = identity;
  const code = randomToken();
  const now = deps.now();
  await deps.store.saveCode(
    sha256(code),
    {
      clientHash: sha256(state.c),
      redirectUri: state.r,
      codeChallenge: state.ch,
      scope: state.sc,
      refresh: state.rt,
      subject,
      resource: deps.resource,
      expiresAt: now + BridgeLimits.codeTtlSeconds,
      // Only a client that may refresh needs the provider's token (sealed, for the re-check on each refresh).
      ...(state.rt && refreshToken ? { upstream: sealUpstreamToken(deps, subject, refreshToken) } : {}),
    },
    // The used code is kept a day, so a replay is recognised (and revokes what it issued) rather than unknown.
    now + saveRetentionSeconds,
    deadlineSignal(ctx),
  );
  return code;
}

/** GET /oauth/callback */
export async function callback(
  req: HttpRequest,
  ctx: InvocationContext,
  deps: BridgeDeps,
  note: RequestNote,
): Promise<HttpResponse> {
  const params = parseParams(req.query);
  const sealed = params.get('state');
  const state = sealed && !params.duplicates.length ? deps.sealer.open('upstream-state', sealed) : undefined;
  if (!isUpstreamState(state)) {
    note.error = 'invalid_request';
    return invalidRequestPage(
      'This sign-in response is invalid or has expired. Start again from your application.',
    );
  }
  note.client = clientLabel(state.c);
  if (!sameBrowser(req, deps, state)) {
    note.error = 'csrf';
    return otherBrowserPage();
  }
  const back = (params: Record<string, string>, error?: string) => {
    if (error) note.error = error;
    return redirectResponse(
      authorizationResponseUrl(state.r, deps.urls.issuer, { ...params, state: state.s }),
      302,
    );
  };
  const fail = (error: string, description: string) => back({ error, error_description: description }, error);
  const upstreamError = params.get('error');
  if (upstreamError !== undefined)
    return upstreamError === 'access_denied'
      ? fail('access_denied', 'the sign-in was cancelled or refused')
      : fail('temporarily_unavailable', 'the sign-in provider reported an error');
  const code = params.get('code');
  if (!code || code.length > BridgeLimits.maxParameterChars)
    return fail('server_error', 'the sign-in provider returned no code');

  const identity = await deps.upstream.redeem(
    { code, redirectUri: deps.urls.callback, codeVerifier: state.v, nonce: state.o, iss: params.get('iss') },
    deadlineSignal(ctx),
  );
  if (!identity.ok) {
    note.reason = identity.reason;
    return identity.temporary
      ? fail('temporarily_unavailable', 'the sign-in provider could not be reached; try again')
      : fail('access_denied', 'the sign-in could not be verified');
  }
  return back({ code: await issueCode(state, identity, ctx, deps) });
}
