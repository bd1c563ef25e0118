import type { APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Logger } from '@mcp-lambda/server';
import {
  createLambdaHandler,
  createProxyLambdaHandler,
  type StreamingEvent,
  type StreamingHandler,
} from '@mcp-lambda/server/lambda';
import type { AuthorizationBridge } from '@mcp-lambda/bridge';
import { LOCAL_ADMIN_PREFIX, localAdmin, type LocalAdminOptions } from './auth-admin.ts';
import type { LambdaHttpHandler, LambdaRestHandler, LocalHandler } from './dev-server.ts';

/**
 * How the local authorization's one server routes, per API, as the deployed API does: the bridge's paths to the
 * bridge, `/_local/` to the loopback administration, everything else to the MCP function. The server listens
 * before the bridge and the function exist (the issuer is its URL); until they do, every request answers 503.
 */

/** What requests are routed to, once they exist. */
interface RouteTargets {
  bridge: AuthorizationBridge;
  admin: LocalAdminOptions;
  log: Logger;
}

/** The server's handler options, and how its targets are given once they exist. */
export interface LocalRoutes<Mcp> {
  handler: LocalHandler;
  ready(targets: RouteTargets, mcp: Mcp): void;
}

const STARTING = { statusCode: 503, body: 'starting' };

/** Header names in lower case (a REST event keeps them as sent). */
const lowerCased = (headers: Readonly<Record<string, string | undefined>> | null) =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

const isAdmin = (path: string) => path.startsWith(LOCAL_ADMIN_PREFIX);

/** The HTTP API: one buffered handler for every path, payload 2.0 events. */
export function httpApiRoutes(): LocalRoutes<LambdaHttpHandler> {
  let route: LambdaHttpHandler = async () => STARTING;
  return {
    handler: { handler: (event, context) => route(event, context) },
    ready({ bridge, admin, log }, mcp) {
      const bridgeHandler = createLambdaHandler(bridge.handle, log);
      const bridgePaths = new Set(bridge.paths);
      route = (event: APIGatewayProxyEventV2, context) => {
        const path = event.rawPath;
        if (isAdmin(path))
          return localAdmin(
            { method: event.requestContext.http.method, path, headers: event.headers },
            admin,
          );
        return (bridgePaths.has(path) ? bridgeHandler : mcp)(event, context);
      };
    },
  };
}

/**
 * The streaming REST API behind a custom domain, as the stack builds it: the MCP path (and the metadata paths)
 * streamed from the MCP function, the bridge's methods beside them as buffered proxy integrations (payload 1.0
 * events, as the bridge function gets them there).
 */
export function restApiRoutes(): LocalRoutes<StreamingHandler<StreamingEvent>> {
  let buffered: ((path: string) => boolean) | undefined;
  let answer: LambdaRestHandler = async () => STARTING;
  let mcp: StreamingHandler<StreamingEvent> | undefined;
  return {
    handler: {
      streamingHandler: (event, stream, context) => mcp!(event, stream, context),
      // Until the targets exist every path is buffered, so every request gets the 503.
      buffered: {
        handles: (path) => buffered?.(path) ?? true,
        handler: (event, context) => answer(event, context),
      },
    },
    ready({ bridge, admin, log }, streaming) {
      const bridgeHandler = createProxyLambdaHandler(bridge.handle, log) as LambdaRestHandler;
      const bridgePaths = new Set(bridge.paths);
      mcp = streaming;
      answer = (event: APIGatewayProxyEvent, context) =>
        isAdmin(event.path)
          ? localAdmin(
              { method: event.httpMethod, path: event.path, headers: lowerCased(event.headers) },
              admin,
            )
          : bridgeHandler(event, context);
      buffered = (path) => isAdmin(path) || bridgePaths.has(path);
    },
  };
}
