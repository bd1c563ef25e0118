import type { AuthRejection, Authenticator } from '../auth/authenticator.ts';
import type { Principal } from '../contracts/principal.ts';
import { clientText } from '../protocol/client-text.ts';
import { acceptable, isJsonContentType } from './media.ts';
import { isHostAllowed, isOriginAllowed } from './origin.ts';
import type { Acceptable, Admission } from '../wire/admitted.ts';
import { json, refusal } from '../wire/replies.ts';
import type { TransportOptions } from '../wire/transport-options.ts';
import type { HttpRequest, HttpResponse, InvocationContext } from '../wire/types.ts';

/** A request that passed the HTTP checks: who calls, and what they accept. */
export interface Admitted extends Admission {
  principal?: Principal;
  accepts: Acceptable;
  body: string;
  /** The request's W3C trace context headers (`traceparent`, `tracestate`, `baggage`), as sent: tracing reads them. */
  traceHeaders?: Record<string, string>;
}

/** A 401/403/503 from the authenticator: its headers (the `WWW-Authenticate` challenge) and a JSON-RPC error body. */
const authRefusal = (rejection: AuthRejection): HttpResponse =>
  refusal(rejection.status, rejection.message, rejection.headers);

const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'] as const;

/** The W3C trace context headers a request carries, if any (tracing checks their form and length). */
function traceHeadersOf(headers: HttpRequest['headers']): { traceHeaders?: Record<string, string> } {
  const found = TRACE_HEADERS.flatMap((name) => {
    const value = headers[name];
    return typeof value === 'string' ? [[name, value] as const] : [];
  });
  return found.length ? { traceHeaders: Object.fromEntries(found) } : {};
}

/**
 * The HTTP checks, in the spec's order: a response when the request is refused, else what was admitted. A `GET`
 * is admitted (with no body) only where cut streams can be resumed (`resumes`); its own checks are resume/resume.ts.
 */
export async function admit(
  authenticator: Authenticator | undefined,
  options: TransportOptions,
  req: HttpRequest,
  ctx: InvocationContext,
  resumes = false,
): Promise<HttpResponse | Admitted> {
  const { headers } = req;
  const metadata = req.method === 'GET' ? authenticator?.metadataFor(req.path) : undefined;
  // Public, non-secret and the same for everyone: any origin may read it, and caches may keep it.
  if (metadata)
    return json(200, metadata, {
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=3600',
    });
  if (req.path !== options.path) return refusal(404, `Not found: the MCP endpoint is ${options.path}`);
  if (!isHostAllowed(headers.host, options.allowedHosts))
    return refusal(403, 'Forbidden: Host header not allowed');
  if (!isOriginAllowed(headers.origin, options.allowedOrigins))
    return refusal(403, 'Forbidden: Origin not allowed');
  let principal: Principal | undefined;
  if (authenticator) {
    const authentication = await authenticator.authenticate({
      path: req.path,
      headers,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
    if (!authentication.ok) {
      const { rejection } = authentication;
      if (rejection.cause) ctx.log.error('access tokens cannot be verified', { cause: rejection.cause });
      return authRefusal(rejection);
    }
    principal = authentication.principal;
  }
  const accepts = acceptable(headers.accept);
  if (req.method === 'GET' && resumes) return { ...(principal ? { principal } : {}), accepts, body: '' };
  // No standalone stream, and sessions that end only by expiring: GET and DELETE are 405 (spec: transports).
  if (req.method !== 'POST')
    return refusal(405, `Method not allowed: ${clientText(req.method)}; use POST`, { allow: 'POST' });
  if (!isJsonContentType(headers['content-type']))
    return refusal(415, 'Unsupported Media Type: Content-Type must be application/json');
  if (!accepts.json && !accepts.sse)
    return refusal(406, 'Not Acceptable: Accept must include application/json and text/event-stream');
  const body = req.body ?? '';
  if (Buffer.byteLength(body, 'utf8') > options.maxBodyBytes)
    return refusal(413, `Payload Too Large: the body limit is ${options.maxBodyBytes} bytes`);
  return { ...(principal ? { principal } : {}), accepts, body, ...traceHeadersOf(headers) };
}
