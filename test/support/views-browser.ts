import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startViewHost, type ViewHost } from '@mcp-lambda/dev/view-host';
import { type RunningServer, startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';
import { startCompanion, type TestCompanion } from './companion.ts';
import { serveMcpFunction } from './local.ts';
import { launchChromium } from './chromium.ts';

/**
 * What the browser tests of the example views share: the real MCP function and companion with a local S3, the local
 * view host (`npm run view`) in front of them, and headless Chromium to open it. Screenshots land in
 * `VIEWS_SCREENSHOTS` (default: the run's temporary folder).
 */

const SHOTS = process.env.VIEWS_SCREENSHOTS || join(tmpdir(), 'views-screenshots');

/** How a page is opened: the host's theme, a clock off by some ms, a time zone, routes set before it loads. */
interface OpenOptions {
  theme?: 'light' | 'dark';
  clockAheadMs?: number;
  timezoneId?: string;
  before?: (page: Page) => Promise<void>;
}

export interface ViewsBrowser {
  s3(): TestS3;
  hostUrl(): string;
  /** A tool call straight to the MCP function, as a model's client would make it (handshake era). */
  callTool(name: string, args: Record<string, unknown>): Promise<any>;
  /** The resource link of a stored report of so many rows. */
  storedReport(rows: number): Promise<any>;
  /** Opens the host on a tool call; resolves with the page and the view's frame once the host shows it. */
  open(
    tool: string,
    args: Record<string, unknown>,
    options?: OpenOptions,
  ): Promise<{ page: Page; view: FrameLocator }>;
  shoot(page: Page, name: string): Promise<unknown>;
}

/** A tool result's text blocks, joined. */
export const text = (result: any): string => result.content.map((b: any) => b.text ?? '').join('\n');

/** Starts everything before the file's tests and stops it after. */
export function useViewsBrowser(chromiumPath: string | undefined): ViewsBrowser {
  let s3: TestS3;
  let companion: TestCompanion;
  let fn: RunningServer;
  let host: ViewHost;
  let browser: Browser;
  let id = 0;

  beforeAll(async () => {
    if (!chromiumPath) return;
    mkdirSync(SHOTS, { recursive: true });
    s3 = await startTestS3();
    Object.assign(process.env, s3.env(), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
    companion = await startCompanion();
    fn = await serveMcpFunction({ ...companion.env, MCP_ALLOWED_ORIGINS: 'http://127.0.0.1:*' });
    host = await startViewHost({ mcpUrl: fn.url });
    browser = await launchChromium(chromiumPath);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await fn?.close();
    await companion?.close();
    await s3?.close();
  });

  const callTool = async (name: string, args: Record<string, unknown>) => {
    const res = await fetch(fn.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
    });
    return ((await res.json()) as { result: any }).result;
  };

  const open: ViewsBrowser['open'] = async (tool, args, options = {}) => {
    const { theme = 'light', clockAheadMs = 0, timezoneId, before } = options;
    const page = await browser.newPage({
      viewport: { width: 1000, height: 1000 },
      locale: 'en-US',
      ...(timezoneId ? { timezoneId } : {}),
    });
    // A person whose computer's clock is off: Date.now in the page and in the view's frame.
    if (clockAheadMs)
      await page.addInitScript((ms) => {
        const now = Date.now.bind(Date);
        Date.now = () => now() + ms;
      }, clockAheadMs);
    await before?.(page);
    const query = new URLSearchParams({ tool, args: JSON.stringify(args), theme });
    await page.goto(`${host.url}/?${query}`);
    await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toBe(`${tool}: shown`);
    return { page, view: page.frameLocator('#view iframe') };
  };

  return {
    s3: () => s3,
    hostUrl: () => host.url,
    callTool,
    storedReport: async (rows) =>
      (await callTool('generate_report', { rows })).content.find((b: any) => b.type === 'resource_link'),
    open,
    shoot: (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }),
  };
}
