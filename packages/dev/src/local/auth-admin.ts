import type { LocalOidcProvider } from './oidc-provider.ts';

/**
 * A loopback administration route of `MCP_AUTH_MODE=oauth npm start`, what an operator does to Cognito and the
 * bridge's table when deployed: disable or re-enable the development user at the embedded sign-in provider, and
 * sign a user out everywhere at the bridge. `npm run local-user` and `npm run signout -- --local` call it.
 *
 *   POST /_local/users/<subject>/disable | enable | signout
 *
 * Only this machine's own tools may use it: the request must be addressed to a loopback host (a DNS-rebinding page
 * names its own host), carry no Origin (no web page sends it without one), and carry `x-mcp-local-admin: 1` (a
 * custom header a cross-site page can only send after a CORS preflight nobody answers).
 */

export const LOCAL_ADMIN_PREFIX = '/_local/';
const LOCAL_ADMIN_HEADER = 'x-mcp-local-admin';

const ROUTE = /^\/_local\/users\/([^/]{1,255})\/(disable|enable|signout)$/;
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/;

export interface LocalAdminOptions {
  provider: LocalOidcProvider;
  /** Signs `subject` out everywhere at the bridge; returns the sign-out time (epoch seconds). */
  signOut(subject: string): Promise<number>;
}

/** An administration request, from an event of either API: header names in lower case. */
export interface LocalAdminRequest {
  method: string;
  path: string;
  headers: Readonly<Record<string, string | undefined>>;
}

/** Its answer: a shape both APIs' Lambda results take. */
export interface LocalAdminAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const answer = (statusCode: number, body: unknown): LocalAdminAnswer => ({
  statusCode,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body: JSON.stringify(body),
});

/** Whether the request comes from a tool on this machine (see the module comment). */
function fromLocalTool({ headers }: LocalAdminRequest): boolean {
  return (
    LOOPBACK_HOST.test(headers.host ?? '') &&
    headers.origin === undefined &&
    headers[LOCAL_ADMIN_HEADER] === '1'
  );
}

/** Answers one administration request. */
export async function localAdmin(
  request: LocalAdminRequest,
  options: LocalAdminOptions,
): Promise<LocalAdminAnswer> {
  if (!fromLocalTool(request))
    return answer(403, { error: 'local administration is for tools on this machine' });
  const match = ROUTE.exec(request.path);
  if (!match) return answer(404, { error: 'not_found' });
  if (request.method !== 'POST') return answer(405, { error: 'method_not_allowed' });
  let subject: string;
  try {
    subject = decodeURIComponent(match[1]!);
  } catch {
    return answer(400, { error: 'the subject is not valid percent-encoding' });
  }
  const action = match[2]!;
  if (action === 'signout') return answer(200, { subject, signedOutAt: await options.signOut(subject) });
  if (subject !== options.provider.user.subject)
    return answer(404, { error: `the local provider has one user, ${options.provider.user.subject}` });
  options.provider.setUserEnabled(action === 'enable');
  return answer(200, { subject, enabled: options.provider.userEnabled });
}
