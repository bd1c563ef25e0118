import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewHost, type ViewHost } from '@mcp-lambda/dev/view-host';
import { startCompanion, type TestCompanion } from '../support/companion.ts';
import { serveMcpFunction } from '../support/local.ts';
import { type RunningServer, startTestS3, type TestS3 } from '@mcp-lambda/dev/testing';
import { requireChromium } from '../support/chromium.ts';

/**
 * The example views in a real headless browser (Debian's chromium, driven by playwright-core), hosted as a host
 * hosts them: the local view host (`npm run view`) reads each view through the SDK 2.x client, serves it with the
 * spec's default Content-Security-Policy into an iframe sandboxed to scripts only, and drives it with the official
 * host side (`AppBridge`), against the real MCP function and companion with a local S3. Screenshots of each land
 * in `VIEWS_SCREENSHOTS` (default: the run's temporary folder).
 */

const chromiumPath = requireChromium('views-browser.test.ts');
const SHOTS = process.env.VIEWS_SCREENSHOTS || join(tmpdir(), 'views-screenshots');

let s3: TestS3;
let companion: TestCompanion;
let fn: RunningServer;
let host: ViewHost;
let browser: Browser;
let id = 0;

/** A JSON-RPC call straight to the MCP function, as a model's client would make it (handshake era). */
async function rpc(method: string, params: Record<string, unknown>): Promise<any> {
  const res = await fetch(fn.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  return ((await res.json()) as { result: any }).result;
}
const callTool = (name: string, args: Record<string, unknown>) =>
  rpc('tools/call', { name, arguments: args });
const text = (result: any) => result.content.map((b: any) => b.text ?? '').join('\n');
const storedReport = async (rows: number) =>
  (await callTool('generate_report', { rows })).content.find((b: any) => b.type === 'resource_link')
    .uri as string;

/** Opens the host on a tool call; resolves with the page and the view's frame once the host shows it. */
async function open(
  tool: string,
  args: Record<string, unknown>,
  theme = 'light',
  clockAheadMs = 0,
): Promise<{ page: Page; view: FrameLocator }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1000 } });
  // A person whose computer's clock is off: Date.now in the page and in the view's frame.
  if (clockAheadMs)
    await page.addInitScript((ms) => {
      const now = Date.now.bind(Date);
      Date.now = () => now() + ms;
    }, clockAheadMs);
  const query = new URLSearchParams({ tool, args: JSON.stringify(args), theme });
  await page.goto(`${host.url}/?${query}`);
  await expect.poll(() => page.textContent('#status'), { timeout: 20_000 }).toBe(`${tool}: shown`);
  return { page, view: page.frameLocator('#view iframe') };
}

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

describe.skipIf(!chromiumPath)('views in a real browser', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s3 = await startTestS3();
    Object.assign(process.env, s3.env(), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
    companion = await startCompanion();
    fn = await serveMcpFunction({ ...companion.env, MCP_ALLOWED_ORIGINS: 'http://127.0.0.1:*' });
    host = await startViewHost({ mcpUrl: fn.url });
    browser = await chromium.launch({
      executablePath: chromiumPath!,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await fn?.close();
    await companion?.close();
    await s3?.close();
  });

  it('the view runs under the default CSP in a frame sandboxed to scripts', async () => {
    const { page } = await open('render_chart', { values: [1, 2] });
    const frame = page.locator('#view iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const src = await frame.getAttribute('src');
    const served = await fetch(new URL(src!, host.url));
    expect(served.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; script-src 'self' 'unsafe-inline';.*connect-src 'none'/,
    );
    await page.close();
  });

  it('output viewer: the first rows of a 20,000-row report, the next page, a search and a jump to a match', async () => {
    const { page, view } = await open('generate_report', { rows: 20_000 });
    await expect
      .poll(() => view.locator('.where').textContent(), { timeout: 15_000 })
      .toBe('Rows 1–50 of 20,000');
    expect(await view.locator('thead th').allTextContents()).toEqual([
      '#',
      'id',
      'date',
      'region',
      'units',
      'unit_price',
      'total',
    ]);
    expect(await view.locator('tbody tr').count()).toBe(50);
    expect(await view.locator('tbody tr').first().locator('td').nth(1).textContent()).toBe('1');
    await shoot(page, 'output-viewer-first-page');

    await view.locator('button[data-nav="Next"]').click();
    await expect.poll(() => view.locator('.where').textContent()).toBe('Rows 51–100 of 20,000');
    expect(await view.locator('tbody tr').first().locator('td').nth(1).textContent()).toBe('51');

    await view.locator('input[type="search"]').fill('12345,2026-11-');
    await view.locator('.search button').click();
    await expect.poll(() => view.locator('.status').textContent()).toMatch(/^1 matching lines/);
    await view.locator('.match').first().click();
    await expect.poll(() => view.locator('.where').textContent()).toBe('Rows 12,345–12,394 of 20,000');
    expect(await view.locator('tbody tr').first().locator('td').nth(1).textContent()).toBe('12345');
    // Every page came through read_output, called by the view through the host.
    expect(await page.locator('#log li[data-kind="view called"]').count()).toBeGreaterThanOrEqual(4);
    await shoot(page, 'output-viewer-search');
    await page.close();
  });

  it('output viewer: an output gone from under it is shown as not found, honestly', async () => {
    const { page, view } = await open('generate_report', { rows: 3000 });
    await expect
      .poll(() => view.locator('.where').textContent(), { timeout: 15_000 })
      .toBe('Rows 1–50 of 3,000');
    // Gone, as delete_output or the bucket's expiry rule would leave it.
    for (const key of s3.keys().filter((k) => k.startsWith('outputs/'))) await s3.storage().delete!(key);
    await view.locator('button[data-nav="Next"]').click();
    await expect
      .poll(() => view.locator('.status').textContent())
      .toMatch(/^No stored output was found for uri/);
    expect(await view.locator('.status').getAttribute('data-kind')).toBe('error');
    await shoot(page, 'output-viewer-gone');
    await page.close();
  });

  it('chart: renders every bar, shows a value on hover, hides and shows a series, follows the theme', async () => {
    const args = {
      values: [3, 1, 4],
      labels: ['a', 'b', 'c'],
      series: [{ name: 'target', values: [2, 2, 2] }],
    };
    const { page, view } = await open('render_chart', args);
    await expect.poll(() => view.locator('rect.bar').count(), { timeout: 15_000 }).toBe(6);
    await view.locator('rect.bar').first().hover();
    await expect.poll(() => view.locator('.tip').textContent()).toBe('a · values: 3');
    await shoot(page, 'chart-hover');
    await view.locator('button.series', { hasText: 'target' }).click();
    expect(await view.locator('button.series', { hasText: 'target' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    expect(await view.locator('rect.bar').count()).toBe(3);
    const background = () =>
      view.locator('body').evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor as string);
    expect(await background()).toBe('rgb(251, 250, 247)');
    await page.selectOption('#theme', 'dark');
    await expect.poll(background).toBe('rgb(30, 29, 27)');
    await shoot(page, 'chart-dark-toggled');
    await page.close();
  });

  it('approval: nothing is deleted before the click; Approve deletes once; the model learns the outcome', async () => {
    const uri = await storedReport(5000);
    const { page, view } = await open('delete_output', { uri });
    await expect
      .poll(() => view.locator('.what').textContent(), { timeout: 15_000 })
      .toMatch(/^Delete the stored output .* \(text\/csv, [\d,]+ bytes, kept until .*\) now/);
    await shoot(page, 'approval-proposed');
    // Shown, not yet approved: the output is still there.
    expect((await callTool('read_output', { uri })).isError).toBeUndefined();
    await view.locator('button.approve').click();
    await expect.poll(() => view.locator('.status').textContent()).toMatch(/^Deleted the stored output/);
    expect(await view.locator('button.approve').isDisabled()).toBe(true);
    expect(text(await callTool('read_output', { uri }))).toMatch(/^No stored output was found/);
    await expect
      .poll(() => page.locator('#log li[data-kind="model context"]').textContent())
      .toMatch(/The person approved delete_output: Deleted the stored output/);
    await shoot(page, 'approval-approved');

    // The proof the view sent, as the host logged its call: replayed, forged, or with other arguments, nothing.
    const logged = await page.locator('#log li[data-kind="view called"]').textContent();
    const sent = JSON.parse(logged!.replace(/^view called: delete_output_approved /, ''));
    const replay = await callTool('delete_output_approved', sent);
    expect(text(replay)).toMatch(/already used/);
    const forged = await callTool('delete_output_approved', {
      ...sent,
      proof: `${sent.proof.slice(0, -2)}AA`,
    });
    expect(text(forged)).toMatch(/does not match this call/);
    const other = await storedReport(4000);
    const retargeted = await callTool('delete_output_approved', { ...sent, arguments: { uri: other } });
    expect(text(retargeted)).toMatch(/does not match this call/);
    expect((await callTool('read_output', { uri: other })).isError).toBeUndefined();
    await page.close();
  });

  it('approval: Reject deletes nothing, and the proposal cannot be approved after', async () => {
    const uri = await storedReport(5000);
    const { page, view } = await open('delete_output', { uri });
    await expect.poll(() => view.locator('button.reject').isEnabled(), { timeout: 15_000 }).toBe(true);
    await view.locator('button.reject').click();
    await expect
      .poll(() => view.locator('.status').textContent())
      .toBe('The person rejected it, so nothing was done.');
    expect((await callTool('read_output', { uri })).isError).toBeUndefined();
    const sent = JSON.parse(
      (await page.locator('#log li[data-kind="view called"]').textContent())!.replace(
        /^view called: \S+ /,
        '',
      ),
    );
    expect(text(await callTool('delete_output_approved', { ...sent, decision: 'approve' }))).toMatch(
      /already used/,
    );
    expect((await callTool('read_output', { uri })).isError).toBeUndefined();
    await shoot(page, 'approval-rejected');
    await page.close();
  });

  it('approval: a person whose clock is an hour ahead still gets the whole time to decide', async () => {
    const uri = await storedReport(3000);
    const { page, view } = await open('delete_output', { uri }, 'light', 60 * 60_000);
    await expect.poll(() => view.locator('button.approve').isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await view.locator('.deadline').textContent()).toMatch(/^Decide within (10:00|9:[0-5]\d)\.$/);
    await view.locator('button.approve').click();
    await expect.poll(() => view.locator('.status').textContent()).toMatch(/^Deleted the stored output/);
    await page.close();
  });

  it('approval: when the approval went through but its answer was lost, the view does not say it was not sent', async () => {
    const uri = await storedReport(3000);
    const { page, view } = await open('delete_output', { uri });
    await expect.poll(() => view.locator('button.approve').isEnabled(), { timeout: 15_000 }).toBe(true);
    // The executing call reaches the server (which deletes), and then the connection drops before the answer.
    await page.route('**/mcp', async (route) => {
      if (!route.request().postData()?.includes('delete_output_approved')) return route.fallback();
      await route.fetch();
      await route.abort('connectionreset');
    });
    await view.locator('button.approve').click();
    await expect
      .poll(() => view.locator('.status').textContent(), { timeout: 15_000 })
      .toMatch(/^No outcome came back .*it may have been done/);
    await shoot(page, 'approval-answer-lost');
    expect(text(await callTool('read_output', { uri }))).toMatch(/^No stored output was found/);
    await expect
      .poll(() => page.locator('#log li[data-kind="model context"]').textContent())
      .toMatch(/may have been done: check before proposing it again/);
    await page.close();
  });
});
