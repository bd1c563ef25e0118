/**
 * API Gateway's CORS, as the deployed stack configures it from the same setting (MCP_ALLOWED_ORIGINS, the
 * `allowedOrigins` of the constructs), for the local server: pure decisions, the server applies them.
 *
 * - HTTP API (`corsPreflight`): API Gateway itself answers every preflight (an OPTIONS request with `Origin` and
 *   `Access-Control-Request-Method`) on any path, 204, with the CORS headers only for an allowed origin; on other
 *   answers it replaces the integration's CORS headers with its own.
 * - REST API (`addCorsPreflight` on each route): an OPTIONS method on the MCP path and the metadata paths answers
 *   204 with the configured headers; the function's own answers keep the headers it sets.
 *
 * Locally the origins are the server's patterns (`http://localhost:*` included), matched as the function matches
 * them; a REST preflight from an origin not on the list gets no `Access-Control-Allow-Origin` (deployed, API
 * Gateway names the first configured origin, which a browser refuses all the same).
 */
import { metadataPaths } from '@mcp-lambda/server/auth';
import {
  CORS_MAX_AGE_SECONDS,
  isOriginAllowed,
  MCP_CORS_HEADERS,
  type Config,
} from '@mcp-lambda/server/lambda';

interface CorsSettings {
  /** Browser origins allowed to call (MCP_ALLOWED_ORIGINS): exact, `scheme://host:*`, or `*`. */
  allowedOrigins: readonly string[];
  /** Request headers browsers may send. Default {@link MCP_CORS_HEADERS}. */
  allowHeaders?: readonly string[];
}

/** The CORS of a local API; absent (or no origins) means no CORS, as a deployment without `allowedOrigins`. */
export type GatewayCors =
  /** An HTTP API: the methods allowed cross-origin on every path (POST, and GET when OAuth metadata is served). */
  | (CorsSettings & { api: 'http'; allowMethods: readonly string[] })
  /** A REST API: the paths with a preflight (the MCP path, the metadata paths) and the methods of each. */
  | (CorsSettings & { api: 'rest'; routes: Readonly<Record<string, readonly string[]>> });

/** The parts of a request the decisions read: header names in lower case. */
export interface CorsRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, string | undefined>>;
}

/** A preflight answered by the gateway itself: no body. */
export interface PreflightAnswer {
  status: 204;
  headers: Record<string, string>;
}

const allowHeaders = (cors: CorsSettings) => (cors.allowHeaders ?? MCP_CORS_HEADERS).join(',');

/** The value of `Access-Control-Allow-Origin` for an origin on the list: `*` when any origin may call. */
const allowOrigin = (origin: string, cors: CorsSettings) =>
  cors.allowedOrigins.includes('*') ? '*' : origin;

const isAllowed = (origin: string | undefined, cors: CorsSettings): origin is string =>
  origin !== undefined && isOriginAllowed(origin, cors.allowedOrigins);

/** An HTTP API's own answer to a preflight, or undefined when the request is not one (it goes to a route). */
function httpApiPreflight(
  req: CorsRequest,
  cors: CorsSettings,
  methods: readonly string[],
): PreflightAnswer | undefined {
  const { origin } = req.headers;
  if (origin === undefined || req.headers['access-control-request-method'] === undefined) return undefined;
  if (!isAllowed(origin, cors)) return { status: 204, headers: {} };
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': allowOrigin(origin, cors),
      'access-control-allow-methods': methods.join(','),
      'access-control-allow-headers': allowHeaders(cors),
      'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
    },
  };
}

/** A REST API's OPTIONS method on a route with a preflight, or undefined for any other request. */
function restApiPreflight(
  req: CorsRequest,
  cors: CorsSettings,
  methods: readonly string[] | undefined,
): PreflightAnswer | undefined {
  if (req.method !== 'OPTIONS' || methods === undefined) return undefined;
  const { origin } = req.headers;
  const any = cors.allowedOrigins.includes('*');
  return {
    status: 204,
    headers: {
      'access-control-allow-headers': allowHeaders(cors),
      ...(isAllowed(origin, cors) ? { 'access-control-allow-origin': allowOrigin(origin, cors) } : {}),
      ...(any ? {} : { vary: 'Origin' }),
      'access-control-allow-methods': methods.join(','),
      'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
    },
  };
}

/** The gateway's answer to a CORS preflight, or undefined when the request goes on to the function. */
export function gatewayPreflight(
  req: CorsRequest,
  cors: GatewayCors | undefined,
): PreflightAnswer | undefined {
  if (!cors?.allowedOrigins.length || req.method !== 'OPTIONS') return undefined;
  return cors.api === 'http'
    ? httpApiPreflight(req, cors, cors.allowMethods)
    : restApiPreflight(req, cors, Object.hasOwn(cors.routes, req.path) ? cors.routes[req.path] : undefined);
}

/**
 * The headers of a function's answer as an HTTP API with CORS sends them: the integration's own CORS headers
 * dropped, the configured ones added for an allowed origin (a REST API passes the function's headers through).
 */
export function gatewayResponseHeaders(
  origin: string | undefined,
  headers: Readonly<Record<string, string>>,
  cors: GatewayCors | undefined,
): Record<string, string> {
  if (!cors?.allowedOrigins.length || cors.api !== 'http' || origin === undefined) return { ...headers };
  const kept = Object.fromEntries(
    Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('access-control-')),
  );
  if (!isAllowed(origin, cors)) return kept;
  return {
    ...kept,
    'access-control-allow-origin': allowOrigin(origin, cors),
    'access-control-expose-headers': 'www-authenticate',
  };
}

/**
 * API Gateway's CORS as the deployed API has it for the same settings (MCP_ALLOWED_ORIGINS): on the HTTP API,
 * preflights on every path allow POST, and GET when OAuth metadata is served; on the REST API, the MCP path allows
 * POST, GET and DELETE and each metadata path GET (the bridge answers its own routes' preflights). `oauth` is local
 * authorization, whose resource is this server's MCP path. Undefined when no origin is allowed.
 */
export function localGatewayCors(
  api: 'http' | 'rest-streaming',
  config: Pick<Config, 'allowedOrigins' | 'mcpPath' | 'auth'>,
  oauth: boolean,
): GatewayCors | undefined {
  const { allowedOrigins } = config;
  if (!allowedOrigins.length) return undefined;
  if (api === 'http') return { api, allowedOrigins, allowMethods: oauth ? ['POST', 'GET'] : ['POST'] };
  const routes: Record<string, string[]> = { [config.mcpPath]: ['POST', 'GET', 'DELETE'] };
  // The metadata paths depend only on the resource's path: for local authorization, the MCP path on loopback.
  const resource =
    config.auth.mode === 'oauth'
      ? config.auth.resource
      : oauth
        ? `http://127.0.0.1${config.mcpPath}`
        : undefined;
  if (resource !== undefined) for (const path of metadataPaths(resource)) routes[path] = ['GET'];
  return { api: 'rest', allowedOrigins, routes };
}
