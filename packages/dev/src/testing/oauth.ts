/**
 * OAuth helpers for the end-to-end tests: an in-memory OAuth client provider that both official SDK clients
 * accept, and a fetch-driven "browser" that follows the authorization flow through the bridge's consent page and
 * the local provider's sign-in form, keeping cookies per host as a browser would.
 */
import { createHash, randomBytes } from 'node:crypto';

/** What the SDK clients store between the legs of the flow. */
export class MemoryOAuthProvider {
  info: Record<string, unknown> | undefined;
  saved: Record<string, unknown> | undefined;
  verifier = '';
  discovery: unknown;
  authorizationUrl: URL | undefined;
  readonly expectedState = randomBytes(16).toString('base64url');

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
    readonly grantTypes: string[] = ['authorization_code', 'refresh_token'],
  ) {}

  get clientMetadata() {
    return {
      client_name: 'E2E <test> client',
      redirect_uris: [this.redirectUrl],
      grant_types: this.grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.info as never;
  }
  saveClientInformation(info: Record<string, unknown>) {
    this.info = info;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: Record<string, unknown>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
}

/** A cookie jar per host, with just enough of RFC 6265 for these flows (name=value, Max-Age=0 deletes). */
export class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  header(url: string): string | undefined {
    const jar = this.jars.get(new URL(url).host);
    return jar?.size ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  }
  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      if (attributes.some((a) => /^max-age=0$/i.test(a))) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1));
    }
  }
  get(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }
  set(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(host, jar);
  }
}

/** One step of the browser's journey, for assertions. */
export interface Step {
  url: string;
  status: number;
  kind: 'redirect' | 'consent' | 'sign-in' | 'page';
}

export interface BrowseOptions {
  /** Where the flow ends: the first redirect to a URL starting with this is returned, not fetched. */
  until: string;
  email?: string;
  password?: string;
  /** The button pressed on the consent page. Default allow. */
  decision?: 'allow' | 'deny';
  jar?: CookieJar;
  /** Extra headers on the consent POST (CSRF tests). */
  consentHeaders?: Record<string, string>;
}

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`)
    .exec(html)?.[1]
    ?.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));

/**
 * Follows an authorization URL like a browser: redirects, the consent form (pressing `decision`), the sign-in
 * form (email and password). Returns the URL the flow was sent back to and the steps taken; throws on a page it
 * does not know how to get past.
 */
export async function browse(
  start: string,
  options: BrowseOptions,
): Promise<{ callback: URL; steps: Step[]; jar: CookieJar }> {
  const jar = options.jar ?? new CookieJar();
  const steps: Step[] = [];
  let url = start;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop += 1) {
    const cookie = jar.header(url);
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    jar.store(url, response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      steps.push({ url, status: response.status, kind: 'redirect' });
      const next = new URL(location, url).href;
      await response.body?.cancel();
      if (next.startsWith(options.until)) return { callback: new URL(next), steps, jar };
      url = next;
      init = {};
      continue;
    }
    const html = await response.text();
    if (response.status === 200 && html.includes('name="transaction"')) {
      steps.push({ url, status: 200, kind: 'consent' });
      const action = /<form method="post" action="([^"]+)"/
        .exec(html)![1]!
        .replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
      const target = new URL(action, url);
      init = {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: target.origin,
          'sec-fetch-site': 'same-origin',
          ...options.consentHeaders,
        },
        body: new URLSearchParams({
          transaction: field(html, 'transaction')!,
          decision: options.decision ?? 'allow',
        }).toString(),
      };
      url = target.href;
      continue;
    }
    if (response.status === 200 && html.includes('name="password"')) {
      // The sign-in form again, right after the credentials were posted: the provider refused them.
      if (steps.at(-1)?.kind === 'sign-in' && init.method === 'POST')
        throw Object.assign(new Error(`The sign-in was refused at ${url}`), { status: 200, html, steps });
      steps.push({ url, status: 200, kind: 'sign-in' });
      const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          email: options.email ?? '',
          password: options.password ?? '',
        }).toString(),
      };
      url = new URL(action, url).href;
      continue;
    }
    steps.push({ url, status: response.status, kind: 'page' });
    throw Object.assign(new Error(`The flow stopped at ${url} (${response.status})`), {
      status: response.status,
      html,
      steps,
    });
  }
  throw new Error('Too many hops');
}

/** A PKCE pair (RFC 7636 S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
