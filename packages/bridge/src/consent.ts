import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import {
  authorizationResponseUrl,
  deadlineSignal,
  pageResponse,
  parseParams,
  redirectResponse,
} from './http.ts';
import { findRedirectUri } from './redirect-uri.ts';
import {
  consentKey,
  invalidRequestPage,
  isTransaction,
  otherBrowserPage,
  rememberConsent,
  sameBrowser,
  sameOrigin,
  toUpstream,
  unverifiedClientPage,
} from './transaction.ts';

/**
 * The consent form's answer (MCP security best practices, confused deputy): only from this bridge's own page
 * (Origin / Fetch Metadata), only with the transaction sealed into that page, only from the browser it was shown
 * in (binding cookie; SameSite=Lax keeps it off cross-site POSTs). Allow remembers the consent in this browser
 * and goes to the upstream sign-in; Deny goes back to the client with access_denied.
 */

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
    return invalidRequestPage(
      'This sign-in request is invalid or has expired. Start again from your application.',
    );
  }
  note.client = clientLabel(transaction.c);
  if (!sameBrowser(req, deps, transaction)) {
    note.error = 'csrf';
    return otherBrowserPage();
  }
  const decision = form.get('decision');
  if (decision === 'deny') {
    note.error = 'access_denied';
    const location = authorizationResponseUrl(transaction.r, deps.urls.issuer, {
      error: 'access_denied',
      error_description: 'the user denied access',
      state: transaction.s,
    });
    return redirectResponse(location, 303);
  }
  if (decision !== 'allow') {
    note.error = 'invalid_request';
    return invalidRequestPage('Choose Allow or Deny.');
  }
  // The client is looked up again: a metadata document may have dropped the redirect URI since the page was shown.
  const resolution = await deps.clients.resolve(transaction.c, deadlineSignal(ctx));
  if (!resolution.ok && resolution.problem.temporary) {
    note.error = resolution.problem.error;
    note.reason = resolution.problem.description;
    return unverifiedClientPage(resolution.problem.description);
  }
  const registered = resolution.ok
    ? findRedirectUri(resolution.client.redirectUris, transaction.r)
    : undefined;
  if (!registered) {
    note.error = 'invalid_request';
    return invalidRequestPage(
      'The application or the address it wants to be sent back to is no longer registered.',
    );
  }
  const cookie = rememberConsent(deps, req, consentKey(transaction.c, registered), transaction.sc.split(' '));
  return toUpstream(transaction, ctx, deps, [cookie], 303);
}
