import { timingSafeEqual } from 'node:crypto';
import type { HttpRequest } from '@mcp-lambda/server/lambda';
import type { BridgeClient } from './client.ts';
import type { BridgeDeps } from './endpoints.ts';
import type { Params } from './http.ts';
import { isMetadataDocumentId, metadataUrlProblem } from './metadata-document.ts';
import { clientSecret, openRegisteredClient } from './registration.ts';

/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3, RFC 7009 §2.1): a public client
 * names itself with `client_id`; a confidential one proves its secret with HTTP Basic or in the form, never both.
 */

/** Client credentials as presented: HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or the form. */
function presentedCredentials(
  req: HttpRequest,
  form: Params,
): { id?: string; secret?: string; basic: boolean; conflict: boolean } {
  const header = req.headers.authorization;
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  const match = header ? /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header.trim()) : null;
  if (header && !match) return { basic: true, conflict: true };
  if (!match)
    return {
      ...(formId ? { id: formId } : {}),
      ...(formSecret ? { secret: formSecret } : {}),
      basic: false,
      conflict: false,
    };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { basic: true, conflict: true };
  let id: string;
  let secret: string;
  try {
    id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  } catch {
    return { basic: true, conflict: true };
  }
  // One authentication method per request (RFC 6749 §2.3).
  const conflict = formSecret !== undefined || (formId !== undefined && formId !== id);
  return { id, secret, basic: true, conflict };
}

/** The client as the token endpoint needs it; metadata-document clients are public and need no fetch here. */
function tokenClient(clientId: string, deps: BridgeDeps): BridgeClient | undefined {
  if (isMetadataDocumentId(clientId)) {
    if (metadataUrlProblem(clientId)) return undefined;
    return {
      id: clientId,
      kind: 'metadata-document',
      redirectUris: [],
      authMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
    };
  }
  return openRegisteredClient(clientId, deps.sealer);
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The authenticated client, or why authentication failed (answered as `invalid_client`). */
export type ClientAuthentication =
  | { ok: true; client: BridgeClient; clientId: string }
  | { ok: false; description: string; basic: boolean; clientId?: string };

/** Authenticates the client of a token or revocation request. */
export function authenticateClient(req: HttpRequest, form: Params, deps: BridgeDeps): ClientAuthentication {
  const credentials = presentedCredentials(req, form);
  const { basic } = credentials;
  if (credentials.conflict)
    return {
      ok: false,
      basic,
      description: 'send client credentials once, either with HTTP Basic or in the body',
    };
  if (!credentials.id) return { ok: false, basic, description: 'client_id is missing' };
  const clientId = credentials.id;
  const client = tokenClient(clientId, deps);
  if (!client) return { ok: false, basic, clientId, description: 'the client is not known here' };
  if (client.authMethod === 'none') {
    if (credentials.secret !== undefined)
      return { ok: false, basic, clientId, description: 'this client is public and has no secret' };
  } else if (
    credentials.secret === undefined ||
    !equal(credentials.secret, clientSecret(deps.sealer, client.id))
  ) {
    return { ok: false, basic, clientId, description: 'client authentication failed' };
  }
  return { ok: true, client, clientId };
}
