/**
 * An embedded OpenID provider for local development and tests: `oidc-provider` (a certified implementation, a
 * dev dependency) on a loopback port, with one development user and a plain sign-in form. It plays the part
 * Cognito's managed login plays in the deployed stack: the authorization bridge sends users here to sign in,
 * as a confidential client with a single callback.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { closeIdleConnectionsSafely } from './keep-alive.ts';
import { memoryAdapter } from './oidc-memory.ts';

/** The development user every local sign-in uses. */
export const DEV_USER_EMAIL = 'dev@example.com';
/** Its subject at the provider (what ends up as `sub` in the bridge's access tokens). */
const DEV_USER_SUBJECT = 'dev-user';

export interface LocalOidcProviderOptions {
  /** The bridge's callback URL: the only redirect URI of the bridge's client. */
  callbackUrl: string;
  /** Port on 127.0.0.1; 0 lets the OS choose. Default 0. */
  port?: number;
  /** The development user's password. Default: random, 16 characters (printed by `npm start`). */
  password?: string;
}

export interface LocalOidcProvider {
  /** Issuer identifier, e.g. http://127.0.0.1:PORT */
  issuer: string;
  clientId: string;
  clientSecret: string;
  user: { email: string; password: string; subject: string };
  /** Sign-in attempts with a wrong password (tests). */
  failedSignIns: number;
  /** Whether the development user may sign in and refresh (an administrator disabling the account upstream). */
  readonly userEnabled: boolean;
  /** Disables or re-enables the development user: disabled, sign-in and the provider's refresh tokens are refused. */
  setUserEnabled(enabled: boolean): void;
  close(): Promise<void>;
}

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function signInPage(uid: string, clientName: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in (local provider)</title></head>
<body style="font:16px system-ui;max-width:28rem;margin:3rem auto">
<h1>Sign in</h1><p>Local development provider, for <strong>${escape(clientName)}</strong>.</p>
${error ? `<p role="alert" style="color:#b00">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Email <input name="email" type="email" autocomplete="username" required></label><br><br>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label><br><br>
<button type="submit">Sign in</button></form></body></html>`;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 8192) req.destroy();
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

type ProviderInstance = InstanceType<(typeof import('oidc-provider'))['default']>;

/** The development user's account state, shared by the sign-in form and the provider's account lookup. */
interface UserState {
  failedSignIns: number;
  enabled: boolean;
}

const DAY = 86_400;

/**
 * The provider's configuration: one confidential client (the bridge), one user, PKCE, our own sign-in page, and
 * refresh tokens as Cognito issues them (always, not bound to the browser session, not rotated, 30 days), which the
 * bridge presents on each of its own refreshes. A disabled user is an unknown account, so those are refused.
 */
async function configuration(clientId: string, clientSecret: string, callbackUrl: string, user: UserState) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'local-1', alg: 'RS256', use: 'sig' };
  return {
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: 'MCP authorization bridge (local)',
        redirect_uris: [callbackUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code' as const],
        token_endpoint_auth_method: 'client_secret_basic' as const,
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    features: { devInteractions: { enabled: false } },
    // Browsers reach it by navigation only and the bridge calls it from the server: no page script needs CORS.
    clientBasedCORS: () => false,
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) =>
      sub === DEV_USER_SUBJECT && user.enabled
        ? { accountId: sub, claims: () => ({ sub, email: DEV_USER_EMAIL, email_verified: true }) }
        : undefined,
    issueRefreshToken: async () => true,
    expiresWithSession: async () => false,
    rotateRefreshToken: false,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 30 * DAY,
      RefreshToken: 30 * DAY,
    },
  };
}

/** Serves the sign-in page of an interaction and checks the development user's credentials. */
async function interaction(
  provider: ProviderInstance,
  password: string,
  state: UserState,
  req: IncomingMessage,
  res: ServerResponse,
  submitted: boolean,
): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const client = await provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? 'an application';
    const page = (error?: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(signInPage(details.uid, clientName, error));
    };
    if (req.method === 'GET' && !submitted) return page();
    if (req.method !== 'POST' || !submitted) {
      res.writeHead(405);
      return void res.end();
    }
    const form = await readForm(req);
    if (form.get('email') !== DEV_USER_EMAIL || form.get('password') !== password) {
      state.failedSignIns += 1;
      return page('Wrong email or password.');
    }
    if (!state.enabled) return page('This account is disabled.');
    // The bridge is this provider's own first-party client: the grant is given with the sign-in.
    const grant = new provider.Grant({
      accountId: DEV_USER_SUBJECT,
      clientId: String(details.params.client_id),
    });
    grant.addOIDCScope('openid email');
    const grantId = await grant.save();
    const result = { login: { accountId: DEV_USER_SUBJECT }, consent: { grantId } };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  } catch {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
    res.end('This sign-in has expired; start again from your application.');
  }
}

/** Starts the provider on loopback. */
export async function startLocalOidcProvider(options: LocalOidcProviderOptions): Promise<LocalOidcProvider> {
  // Loaded by a name esbuild cannot follow, so this development dependency never enters a function bundle.
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as typeof import('oidc-provider');
  const server: Server = createServer();
  closeIdleConnectionsSafely(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const password = options.password ?? randomBytes(12).toString('base64url');
  const clientId = 'mcp-authorization-bridge';
  const clientSecret = randomBytes(32).toString('base64url');
  const state: UserState = { failedSignIns: 0, enabled: true };
  const provider = new Provider(issuer, {
    ...(await configuration(clientId, clientSecret, options.callbackUrl, state)),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><title>Sign-in error</title><h1>Sign-in error</h1><p>${escape(out.error ?? '')}: ${escape(out.error_description ?? '')}</p>`;
    },
  });
  const callback = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url ?? '');
    if (!match) return void callback(req, res);
    void interaction(provider, password, state, req, res, match[2] !== undefined);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    user: { email: DEV_USER_EMAIL, password, subject: DEV_USER_SUBJECT },
    get failedSignIns() {
      return state.failedSignIns;
    },
    get userEnabled() {
      return state.enabled;
    },
    setUserEnabled(enabled) {
      state.enabled = enabled;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
