import { createHash } from 'node:crypto';
import { BridgeLimits } from './limits.ts';

/**
 * The bridge's only HTML: the consent page and the error page. Plain server-rendered HTML with no script and no
 * external asset; every client-supplied string is escaped; the Content-Security-Policy allows only the inline style
 * (by hash) and forms posting back here (and, after a form, the redirects that follow it). The redirect origin has a
 * line of its own, so a common one fits unbroken, and wraps when longer than a line: never scrolled or clipped, as a
 * registered `https://claude.ai.<anything>` would have its end out of sight.
 */

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem}code{background:#f2f2f2;padding:0 .25rem;border-radius:3px;overflow-wrap:anywhere}
.origin code{font-size:1.05rem}
.box{border:1px solid #ccc;border-radius:8px;padding:1rem 1.25rem;margin:1.25rem 0}
.actions{display:flex;gap:.75rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:6px;border:1px solid #888;cursor:pointer}
button.primary{background:#1f5fbf;color:#fff;border-color:#1f5fbf}.muted{color:#555;font-size:.9rem}`;
let styleHash: string | undefined;
/** The CSP hash of the inline style, computed on first use (importing the library runs nothing). */
const STYLE_HASH = () => (styleHash ??= createHash('sha256').update(STYLE).digest('base64'));

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An origin as a CSP host-source: scheme, a hostname or IPv6 literal, and a port; nothing else passes. */
const CSP_ORIGIN = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Security headers of every HTML response; `formTargets` are origins a form submission may end up at. Each must be
 * a plain origin (registration already refuses other hosts); anything else is left out rather than written, so no
 * client-supplied byte can add a directive (`;`) or a source (` `) to the policy.
 */
export function htmlHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const targets = formTargets.filter((t) => CSP_ORIGIN.test(t));
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': [
      "default-src 'none'",
      `style-src 'sha256-${STYLE_HASH()}'`,
      `form-action 'self'${targets.map((t) => ` ${t}`).join('')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` on the consent POST, and the
    // CSRF check needs the real origin; other sites still get no referrer.
    'referrer-policy': 'same-origin',
  };
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
  `<body>${body}</body></html>`;

/** What the consent page shows and posts back. */
export interface ConsentView {
  /** Where the form posts (the bridge's consent endpoint path). */
  action: string;
  /** The client's self-declared name, if any (already capped and stripped of control characters). */
  clientName: string | undefined;
  /** How the client is identified: its metadata document URL, or "registered dynamically". */
  clientIdentity: string;
  /** Origin (scheme, host and port) the browser will be sent back to with the authorization code. */
  redirectOrigin: string;
  /** Whether the client gets a refresh token, so access lasts beyond one access token. */
  refresh: boolean;
  /** Scopes to be granted. */
  scopes: readonly string[];
  /** The sealed transaction, carried in a hidden field. */
  transaction: string;
  /** Name of the MCP server the client wants to reach. */
  resourceName: string;
}

/** A lifetime in words ("30 days", "one hour"), and as a period ("every hour", "every 15 minutes"). */
function spoken(seconds: number, period = false): string {
  const [unit, size] =
    seconds % 86_400 === 0 ? ['day', 86_400] : seconds % 3_600 === 0 ? ['hour', 3_600] : ['minute', 60];
  const count = Math.round(seconds / size);
  if (count === 1) return period ? unit : `one ${unit}`;
  return `${count} ${unit}s`;
}

/** How long the access lasts, plainly (a client with a refresh token renews it without asking the user). */
function lasting(refresh: boolean): string {
  return refresh
    ? `It keeps this access for up to ${spoken(BridgeLimits.refreshTtlSeconds)} without asking you again ` +
        `(renewing it every ${spoken(BridgeLimits.accessTokenTtlSeconds, true)}), until you are signed out or the ` +
        'access is revoked.'
    : `This access lasts ${spoken(BridgeLimits.accessTokenTtlSeconds)}; after that the application must send ` +
        'you here again.';
}

/** The consent page (MCP security best practices, confused-deputy mitigation). */
export function consentPage(view: ConsentView): string {
  const name = view.clientName ? escapeHtml(view.clientName) : 'An unnamed application';
  const scopes = view.scopes.length
    ? `<p>It asks for: ${view.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</p>`
    : '';
  return page(
    'Allow access?',
    `<h1>Allow access to ${escapeHtml(view.resourceName)}?</h1>` +
      `<div class="box"><p><strong>${name}</strong> wants to use the tools of ${escapeHtml(view.resourceName)} on your behalf.</p>` +
      `<p>${lasting(view.refresh)}</p>` +
      `<p>After you sign in, or if you deny, you will be sent to:</p>` +
      `<p class="origin"><code id="redirect-origin">${escapeHtml(view.redirectOrigin)}</code></p>${scopes}` +
      `<p class="muted">Client: ${escapeHtml(view.clientIdentity)}. The name is chosen by the application itself; ` +
      `allow only if you started this connection and trust where it sends you.</p></div>` +
      `<form method="post" action="${escapeHtml(view.action)}">` +
      `<input type="hidden" name="transaction" value="${escapeHtml(view.transaction)}">` +
      `<div class="actions"><button class="primary" type="submit" name="decision" value="allow">Allow and sign in</button>` +
      `<button type="submit" name="decision" value="deny">Deny</button></div></form>`,
  );
}

/**
 * An invalid request from a client this browser has not consented to (RFC 9700 §4.11.2): the error is shown here
 * and the way back to the client is a link the user may follow, naming its host, never an automatic redirect (an
 * open registration lets anyone pick the redirect URI, so bouncing errors there would make this an open redirector).
 */
export function returnPage(view: { message: string; returnUrl: string; returnHost: string }): string {
  return page(
    'This sign-in request cannot be used',
    `<h1>This sign-in request cannot be used</h1><p>${escapeHtml(view.message)}</p>` +
      `<p class="muted">Only if you started this from an application you trust: ` +
      `<a href="${escapeHtml(view.returnUrl)}">return to ${escapeHtml(view.returnHost)}</a>.</p>`,
  );
}

/** An error page: shown instead of redirecting when the redirect target itself cannot be trusted. */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
