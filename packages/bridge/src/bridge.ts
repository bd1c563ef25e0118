import { metadataCandidates } from '@mcp-lambda/server/auth';
import type { HttpRequest, HttpResponse, InvocationContext } from '@mcp-lambda/server/lambda';
import { BridgeLimits } from './limits.ts';
import { authorize } from './authorize.ts';
import { callback } from './callback.ts';
import { consent } from './consent.ts';
import { BRIDGE_PATHS, bridgeUrls, type BridgeDeps, type BridgeUrls, type RequestNote } from './endpoints.ts';
import { deadlineSignal, documentResponse, jsonResponse, pageResponse } from './http.ts';
import { registrationEndpoint } from './register.ts';
import { OFFLINE_ACCESS } from './scopes.ts';
import { revoke } from './revoke.ts';
import { token } from './token.ts';
import { monotonicMs } from '@mcp-lambda/server/auth';

/**
 * The authorization bridge: an OAuth 2.1 authorization server for MCP clients (RFC 8414 metadata, Dynamic Client
 * Registration and Client ID Metadata Documents, PKCE-only authorization code flow with consent, refresh-token
 * rotation, RFC 7009 revocation) that delegates the user's sign-in to an upstream OpenID provider and mints its
 * own access tokens for the one MCP resource. Runtime-neutral: it handles neutral HTTP requests;
 * `createAuthorizationFunction` (`function.ts`) wraps it for Lambda and `npm start` serves it locally.
 */

export type BridgeOptions = Omit<BridgeDeps, 'urls'> & {
  /** The bridge's issuer identifier: the origin it is served on (https; http only on loopback). */
  issuer: string;
};

export interface AuthorizationBridge {
  readonly urls: BridgeUrls;
  /** Paths the bridge answers (for routing in front of it). */
  readonly paths: readonly string[];
  /** The RFC 8414 metadata document. */
  readonly metadata: Record<string, unknown>;
  handle(req: HttpRequest, ctx: InvocationContext): Promise<HttpResponse>;
}

/** How clients authenticate at the token and revocation endpoints (public clients: `none`, with PKCE). */
const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'];

/** The RFC 8414 document (also served at the OpenID discovery paths clients try). */
export function authorizationServerMetadata(
  urls: BridgeUrls,
  scopes: readonly string[],
): Record<string, unknown> {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    revocation_endpoint: urls.revoke,
    registration_endpoint: urls.register,
    jwks_uri: urls.jwks,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    scopes_supported: [...scopes, OFFLINE_ACCESS],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** Answers CORS preflights of the endpoints browser-based clients call with fetch. */
const preflight = (): HttpResponse => ({
  status: 204,
  headers: {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, GET, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
    'access-control-max-age': '3600',
  },
  body: '',
});

type Route = (req: HttpRequest, ctx: InvocationContext, note: RequestNote) => Promise<HttpResponse>;
type Routes = Map<string, Partial<Record<string, Route>>>;

/** The route table: path, then method. */
function routesFor(deps: BridgeDeps, metadata: Record<string, unknown>): Routes {
  const routes: Routes = new Map([
    [BRIDGE_PATHS.authorize, { GET: (r, c, n) => authorize(r, c, deps, n) }],
    [BRIDGE_PATHS.consent, { POST: (r, c, n) => consent(r, c, deps, n) }],
    [BRIDGE_PATHS.callback, { GET: (r, c, n) => callback(r, c, deps, n) }],
    [BRIDGE_PATHS.token, { POST: (r, c, n) => token(r, c, deps, n), OPTIONS: async () => preflight() }],
    [BRIDGE_PATHS.revoke, { POST: (r, c, n) => revoke(r, c, deps, n), OPTIONS: async () => preflight() }],
    [
      BRIDGE_PATHS.register,
      { POST: async (r, _c, n) => registrationEndpoint(r, deps, n), OPTIONS: async () => preflight() },
    ],
    [
      BRIDGE_PATHS.jwks,
      { GET: async (_r, c) => documentResponse(await deps.signer.jwks(deadlineSignal(c))) },
    ],
  ]);
  for (const url of metadataCandidates(deps.urls.issuer))
    routes.set(new URL(url).pathname, { GET: async () => documentResponse(metadata) });
  return routes;
}

/** A store, key or provider failure: not the client's fault, and nothing internal is shown. */
function unavailable(req: HttpRequest): HttpResponse {
  const response =
    req.method === 'GET' || req.path === BRIDGE_PATHS.consent
      ? pageResponse(503, 'Sign-in is unavailable', 'Please try again in a moment.')
      : jsonResponse(503, { error: 'temporarily_unavailable', error_description: 'try again shortly' });
  return { ...response, headers: { ...response.headers, 'retry-after': '5' } };
}

/** Routes one request and writes its one log line. */
async function serve(routes: Routes, req: HttpRequest, ctx: InvocationContext): Promise<HttpResponse> {
  const started = monotonicMs();
  const note: RequestNote = {};
  let response: HttpResponse;
  const methods = routes.get(req.path);
  const route = methods?.[req.method];
  if (!methods) {
    response = jsonResponse(404, { error: 'not_found' });
  } else if (!route) {
    const refused = jsonResponse(405, { error: 'method_not_allowed' });
    response = { ...refused, headers: { ...refused.headers, allow: Object.keys(methods).join(', ') } };
  } else if ((req.body?.length ?? 0) > BridgeLimits.maxBodyBytes) {
    note.error = 'invalid_request';
    response = jsonResponse(413, {
      error: 'invalid_request',
      error_description: 'the request body is too large',
    });
  } else {
    try {
      response = await route(req, ctx, note);
    } catch (error) {
      ctx.log.error('authorization bridge failure', {
        path: req.path,
        cause: error instanceof Error ? error.message : String(error),
      });
      note.error = 'temporarily_unavailable';
      response = unavailable(req);
    }
  }
  ctx.log.info('request', {
    method: req.method,
    path: req.path,
    status: response.status,
    durationMs: Math.round(monotonicMs() - started),
    ...note,
  });
  return response;
}

export function createAuthorizationBridge(options: BridgeOptions): AuthorizationBridge {
  const urls = bridgeUrls(options.issuer);
  if (new URL(options.issuer).pathname !== '/' || options.issuer.endsWith('/'))
    throw new Error('The bridge issuer must be an origin without a path or trailing slash');
  const deps: BridgeDeps = { ...options, urls };
  const metadata = authorizationServerMetadata(urls, options.scopes);
  const routes = routesFor(deps, metadata);
  return { urls, paths: [...routes.keys()], metadata, handle: (req, ctx) => serve(routes, req, ctx) };
}
