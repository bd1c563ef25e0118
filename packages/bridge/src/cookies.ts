/**
 * The bridge's browser cookies: HttpOnly, SameSite=Lax (sent on the top-level navigation back from the sign-in
 * page, never on a cross-site POST), Secure with the `__Host-` prefix when the bridge is served over https
 * (always when deployed; plain http only on loopback for local development).
 */

/** The cookies the bridge sets. */
type BridgeCookie = 'binding' | 'consent';

export interface CookieJar {
  /** The name a cookie has on this deployment. */
  name(cookie: BridgeCookie): string;
  /** The value the request carries for a cookie, if any. */
  read(cookies: readonly string[] | undefined, cookie: BridgeCookie): string | undefined;
  /** A Set-Cookie value; `maxAgeSeconds` 0 deletes it. */
  write(cookie: BridgeCookie, value: string, maxAgeSeconds: number): string;
}

export function createCookieJar(secure: boolean): CookieJar {
  const name = (cookie: BridgeCookie) => `${secure ? '__Host-' : ''}mcp_bridge_${cookie}`;
  return {
    name,
    read(cookies, cookie) {
      const wanted = name(cookie);
      // If a name appears twice (a cookie set by a sibling path or host), neither is trusted.
      const values = (cookies ?? [])
        .flatMap((c) => c.split(';'))
        .map((c) => c.trim())
        .filter((c) => c.startsWith(`${wanted}=`))
        .map((c) => c.slice(wanted.length + 1));
      return values.length === 1 ? values[0] : undefined;
    },
    write(cookie, value, maxAgeSeconds) {
      return [
        `${name(cookie)}=${value}`,
        'Path=/',
        `Max-Age=${maxAgeSeconds}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(secure ? ['Secure'] : []),
      ].join('; ');
    },
  };
}
