import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeStack, type BridgeStack, CookieJar, pkce } from '@mcp-lambda/dev/testing';

/**
 * Every header the authorization bridge writes, each with the rule its value keeps: fixed, or built only from
 * values the bridge made or validated and encoded. The requests carry hostile client-supplied strings (a client
 * name, a state and a redirect path full of quotes, semicolons, commas and angle brackets); none of them may reach a
 * header raw, and every header value is visible ASCII on one line.
 */

const MARK = 'MARK';
const HOSTILE = `${MARK};a,b"c<d>'e`;
const REDIRECT = `https://app.example.com/cb/${MARK}"'<>;,`;

let stack: BridgeStack;
const responses: { what: string; res: Response }[] = [];

async function record(what: string, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  await res.arrayBuffer();
  responses.push({ what, res });
  return res;
}

const form = (body: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body).toString(),
});

/** The consent page, its Allow and its Deny, for a client registered with hostile metadata. */
async function consentFlows(clientId: string) {
  const authorize = new URL(`${stack.issuer}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: HOSTILE,
    scope: 'mcp',
  }).toString();
  for (const decision of ['allow', 'deny']) {
    const jar = new CookieJar();
    const page = await fetch(authorize, { redirect: 'manual' });
    jar.store(stack.issuer, page);
    responses.push({ what: 'consent page', res: page });
    const transaction = /name="transaction" value="([^"]+)"/.exec(await page.text())![1]!;
    await record(
      `consent ${decision}`,
      `${stack.issuer}/oauth/consent`,
      form({ transaction, decision }, { origin: stack.issuer, cookie: jar.header(stack.issuer)! }),
    );
  }
  // An invalid request from a client never consented to: a page with a link back, no redirect.
  await record('return page', `${authorize.href.replace('response_type=code', 'response_type=token')}`);
}

beforeAll(async () => {
  stack = await startBridgeStack();
  const registered = await fetch(`${stack.issuer}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: HOSTILE,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  responses.push({ what: 'registration', res: registered });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  await consentFlows(clientId);
  await record('registration refused', `${stack.issuer}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [`https://x;${MARK}/cb`] }),
  });
  await record(
    'token refused',
    `${stack.issuer}/oauth/token`,
    form({ grant_type: 'password', client_id: clientId }),
  );
  const basic = Buffer.from(`${encodeURIComponent(HOSTILE)}:x`).toString('base64');
  await record(
    'token, Basic refused',
    `${stack.issuer}/oauth/token`,
    form({ grant_type: 'x' }, { authorization: `Basic ${basic}` }),
  );
  await record('revoke', `${stack.issuer}/oauth/revoke`, form({ client_id: clientId, token: HOSTILE }));
  await record('preflight', `${stack.issuer}/oauth/token`, {
    method: 'OPTIONS',
    headers: { origin: `https://${MARK}.example` },
  });
  await record('wrong method', `${stack.issuer}/oauth/token`, { method: 'GET' });
  await record('unknown path', `${stack.issuer}/oauth/${MARK}`);
  await record('metadata', `${stack.issuer}/.well-known/oauth-authorization-server`);
  await record('keys', `${stack.issuer}/oauth/jwks`);
  const jwks = stack.signer.jwks;
  stack.signer.jwks = () => Promise.reject(new Error('KMS did not answer in time'));
  try {
    await record('unavailable', `${stack.issuer}/oauth/jwks`);
  } finally {
    stack.signer.jwks = jwks;
  }
  // The callback's redirect to the client needs a real sign-in: its Location is covered by the abuse table's flows.
});
afterAll(async () => {
  await stack?.close();
});

/** Each header the bridge writes and the rule its value keeps. */
const RULES: [header: string, rule: RegExp | ((value: string, what: string) => void)][] = [
  ['content-type', /^(application\/json|text\/html; charset=utf-8)$/],
  ['cache-control', /^(no-store|public, max-age=300)$/],
  ['pragma', /^no-cache$/],
  ['access-control-allow-origin', /^\*$/],
  ['access-control-allow-methods', /^POST, GET, OPTIONS$/],
  ['access-control-allow-headers', /^authorization, content-type, mcp-protocol-version$/],
  ['access-control-max-age', /^3600$/],
  ['www-authenticate', /^Basic realm="token"$/],
  ['retry-after', /^5$/],
  ['allow', /^POST, OPTIONS$/],
  ['referrer-policy', /^(same-origin|no-referrer)$/],
  ['x-frame-options', /^DENY$/],
  ['x-content-type-options', /^nosniff$/],
  [
    'content-security-policy',
    (value) => {
      const formAction = /form-action ([^;]*)/.exec(value)![1]!;
      expect(formAction).toMatch(/^'self'( https?:\/\/[a-z0-9.-]+(:\d+)?)*$/);
      expect(value.split('; ')).toHaveLength(5);
    },
  ],
  [
    'location',
    (value, what) => {
      // The serialisation of a URL the bridge built: the client's state and redirect path percent-encoded.
      expect(new URL(value).href).toBe(value);
      // Only RFC 3986 URI characters: `"`, `<`, `>`, spaces and the like arrive percent-encoded.
      expect(value).toMatch(/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/);
      expect(value).not.toContain('"');
      if (what === 'consent deny') {
        const url = new URL(value);
        expect(url.origin + decodeURIComponent(url.pathname)).toBe(REDIRECT);
        expect(url.searchParams.get('state')).toBe(HOSTILE);
      }
    },
  ],
  [
    'set-cookie',
    (value) =>
      expect(value).toMatch(
        /^mcp_bridge_(binding|consent)=[A-Za-z0-9_-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
      ),
  ],
];

describe('headers the bridge writes', () => {
  it('writes only the headers this table knows, each visible ASCII on one line with no client-supplied byte raw', () => {
    const known = new Set([...RULES.map(([h]) => h), 'content-length', 'date', 'connection', 'keep-alive']);
    for (const { what, res } of responses)
      for (const [name, value] of res.headers) {
        expect(known.has(name), `${what}: ${name}`).toBe(true);
        expect(value, `${what}: ${name}`).toMatch(/^[\x20-\x7e]*$/);
        if (name !== 'location') expect(value, `${what}: ${name}`).not.toContain(MARK);
      }
  });

  it.each(RULES)('%s: written, and every value keeps its rule', (header, rule) => {
    const carriers = responses.flatMap(({ what, res }) =>
      (header === 'set-cookie' ? res.headers.getSetCookie() : [res.headers.get(header)])
        .filter((v): v is string => v !== null)
        .map((value) => ({ what, value })),
    );
    expect(carriers.length, `no response carried ${header}`).toBeGreaterThan(0);
    for (const { what, value } of carriers) {
      if (typeof rule === 'function') rule(value, what);
      else expect(value, what).toMatch(rule);
    }
  });
});
