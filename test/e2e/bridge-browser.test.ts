import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeStack, type BridgeStack, MemoryOAuthProvider } from '@mcp-lambda/dev/testing';
import { launchChromium, requireChromium } from '../support/chromium.ts';

/**
 * A real headless browser (Debian's chromium, driven by playwright-core) walks the authorization flow an MCP
 * client starts: the bridge's consent page, the upstream sign-in form, and back to the client's loopback redirect,
 * where the SDK 2.x client takes the code and calls a tool. `.ci/run` installs chromium before the tests; without
 * it this file skips itself and says why, except under `CI=true`, where it fails.
 */

const CHROMIUM = requireChromium('bridge-browser.test.ts');
const available = CHROMIUM !== undefined;

let stack: BridgeStack;
let browser: Browser;
let receiver: Server;
let redirect: string;
const received: URLSearchParams[] = [];

describe.skipIf(!available)(`a real browser (${CHROMIUM})`, () => {
  beforeAll(async () => {
    stack = await startBridgeStack();
    // The client's loopback redirect target, as a native MCP client would run it.
    receiver = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // The browser also asks for /favicon.ico; only the callback counts.
      if (url.pathname === '/callback') received.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Done</title><p id="done">You can close this window.</p>');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    redirect = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
    browser = await launchChromium(CHROMIUM!);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await stack?.close();
  });

  it('consents, signs in upstream, returns the code to the client, and the client calls a tool', async () => {
    const provider = new MemoryOAuthProvider(redirect);
    const url = new URL(stack.resource);
    const first = new Transport2(url, { authProvider: provider as never });
    await expect(
      new Client2({ name: 'browser-e2e', version: '1.0.0' }).connect(first),
    ).rejects.toBeInstanceOf(UnauthorizedError);

    const page = await (await browser.newContext()).newPage();
    await page.goto(provider.authorizationUrl!.href);
    // The bridge's consent page names the client and where it will be sent back to.
    await expect(page.title()).resolves.toBe('Allow access?');
    const consentText = await page.textContent('body');
    expect(consentText).toContain('E2E <test> client');
    expect(consentText).toContain(new URL(redirect).host);
    await page.click('button[value="allow"]');
    // The upstream provider's sign-in form.
    await page.waitForSelector('input[name="password"]');
    await page.fill('input[name="email"]', stack.upstream.user.email);
    await page.fill('input[name="password"]', stack.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('#done');
    expect(page.url().startsWith(redirect)).toBe(true);

    const params = received.at(-1)!;
    expect(params.get('iss')).toBe(stack.issuer);
    await first.finishAuth(params);
    const client = new Client2({ name: 'browser-e2e', version: '1.0.0' });
    await client.connect(new Transport2(url, { authProvider: provider as never }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toMatchObject({ subject: 'dev-user', scopes: ['mcp'] });
    await client.close();
  });

  it('shows a wrong password on the upstream form and never reaches the client', async () => {
    const provider = new MemoryOAuthProvider(redirect);
    const first = new Transport2(new URL(stack.resource), { authProvider: provider as never });
    await expect(
      new Client2({ name: 'browser-e2e', version: '1.0.0' }).connect(first),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const before = received.length;
    const page = await (await browser.newContext()).newPage();
    await page.goto(provider.authorizationUrl!.href);
    await page.click('button[value="allow"]');
    await page.waitForSelector('input[name="password"]');
    await page.fill('input[name="email"]', stack.upstream.user.email);
    await page.fill('input[name="password"]', 'not the password');
    await page.click('button[type="submit"]');
    await expect(page.textContent('[role="alert"]')).resolves.toContain('Wrong email or password');
    expect(received.length).toBe(before);
  });

  it('serves the consent page with a CSP that forbids framing and script', async () => {
    const provider = new MemoryOAuthProvider(redirect);
    const first = new Transport2(new URL(stack.resource), { authProvider: provider as never });
    await expect(
      new Client2({ name: 'browser-e2e', version: '1.0.0' }).connect(first),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const page = await (await browser.newContext()).newPage();
    const response = await page.goto(provider.authorizationUrl!.href);
    const csp = response!.headers()['content-security-policy']!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
  });

  /** The authorization URL of a fresh client registered with `redirectUri`: its consent page. */
  async function consentUrl(redirectUri: string): Promise<string> {
    const registered = await fetch(`${stack.issuer}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Width test',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const authorize = new URL(`${stack.issuer}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    return authorize.href;
  }

  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://chatgpt.com/connector_platform_oauth_redirect',
    'http://127.0.0.1:50001/callback',
  ])('shows the redirect origin of %s whole, on one line, at common widths', async (redirectUri) => {
    const url = await consentUrl(redirectUri);
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const width of [320, 375, 414, 768, 1024, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(url);
      const shown = await page.$eval('#redirect-origin', (el) => ({
        text: el.textContent,
        lines: el.getClientRects().length,
        clipped: el.parentElement!.scrollWidth > el.parentElement!.clientWidth,
      }));
      expect(shown, `${width}px`).toEqual({ text: new URL(redirectUri).origin, lines: 1, clipped: false });
    }
    await context.close();
  });

  it('shows a long redirect host whole at every width, its end never scrolled or clipped out of sight', async () => {
    // A phishing registration: the page must not show "https://claude.ai.sign-in-secure-conn…" and hide the rest.
    const redirectUri = `https://claude.ai.sign-in-secure-connector-${'x'.repeat(30)}.evil.example/cb`;
    const page = await (await browser.newContext()).newPage();
    for (const width of [320, 375, 414, 768, 1024, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(await consentUrl(redirectUri));
      const shown = await page.$eval('#redirect-origin', (el) => {
        const box = el.parentElement!;
        const rects = [...el.getClientRects()];
        return {
          text: el.textContent,
          clipped: box.scrollWidth > box.clientWidth,
          outside: rects.some((r) => r.left < 0 || r.right > el.ownerDocument.documentElement.clientWidth),
        };
      });
      expect(shown, `${width}px`).toEqual({
        text: new URL(redirectUri).origin,
        clipped: false,
        outside: false,
      });
    }
    await page.context().close();
  });
});
