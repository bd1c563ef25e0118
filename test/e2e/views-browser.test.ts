import { describe, expect, it } from 'vitest';
import { requireChromium } from '../support/chromium.ts';
import { text, useViewsBrowser } from '../support/views-browser.ts';

/**
 * The example views in a real headless browser (Debian's chromium, driven by playwright-core), hosted as a host
 * hosts them: the local view host (`npm run view`) reads each view through the SDK 2.x client, serves it with the
 * spec's default Content-Security-Policy into an iframe sandboxed to scripts only, and drives it with the official
 * host side (`AppBridge`), against the real MCP function and companion with a local S3. The output viewer's search
 * and previews are in views-output.test.ts.
 */

const chromiumPath = requireChromium('views-browser.test.ts');

describe.skipIf(!chromiumPath)('views in a real browser', () => {
  const { callTool, hostUrl, open, s3, shoot, storedReport } = useViewsBrowser(chromiumPath);
  const storedUri = async (rows: number) => (await storedReport(rows)).uri as string;

  it('the view runs under the default CSP in a frame sandboxed to scripts', async () => {
    const { page } = await open('render_chart', { values: [1, 2] });
    const frame = page.locator('#view iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    const src = await frame.getAttribute('src');
    const served = await fetch(new URL(src!, hostUrl()));
    expect(served.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; script-src 'self' 'unsafe-inline';.*connect-src 'none'/,
    );
    await page.close();
  });

  it('output viewer: the first rows of a 20,000-row report, the next page, a search and a jump to a match', async () => {
    const { page, view } = await open('generate_report', { rows: 20_000 });
    await expect
      .poll(() => view.locator('.nav .where').textContent(), { timeout: 15_000 })
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
    await expect.poll(() => view.locator('.nav .where').textContent()).toBe('Rows 51–100 of 20,000');
    expect(await view.locator('tbody tr').first().locator('td').nth(1).textContent()).toBe('51');

    await view.locator('input[type="search"]').fill('12345,2026-11-');
    await view.locator('.search button', { hasText: 'Search' }).click();
    // The match in the table's own numbering (row 12,345 is line 12,346 of the file), marked where it is.
    await expect.poll(() => view.locator('.search .where').textContent()).toBe('Match 1 of 1: row 12,345');
    await expect.poll(() => view.locator('.nav .where').textContent()).toBe('Rows 12,345–12,394 of 20,000');
    expect(await view.locator('tr.hit td').allTextContents()).toEqual([
      '12,345',
      '12345',
      '2026-11-26',
      'south',
      '91',
      '71.46',
      '6502.86',
    ]);
    // Every page came through read_output, called by the view through the host.
    expect(await page.locator('#log li[data-kind="view called"]').count()).toBeGreaterThanOrEqual(4);
    await shoot(page, 'output-viewer-search');
    await page.close();
  });

  it('output viewer: an output gone from under it is shown as not found, honestly', async () => {
    const { page, view } = await open('generate_report', { rows: 3000 });
    await expect
      .poll(() => view.locator('.nav .where').textContent(), { timeout: 15_000 })
      .toBe('Rows 1–50 of 3,000');
    // Gone, as delete_output or the bucket's expiry rule would leave it.
    for (const key of s3()
      .keys()
      .filter((k) => k.startsWith('outputs/')))
      await s3().storage().delete!(key);
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

  it('chart: the tooltip reads clearly in both themes when the host sends no inverse colours', async () => {
    const { page, view } = await open('render_chart', { values: [3, 1, 4] }, { theme: 'dark' });
    await expect.poll(() => view.locator('rect.bar').count(), { timeout: 15_000 }).toBe(3);
    const tipContrast = async () => {
      await view.locator('rect.bar').nth(2).hover();
      await expect.poll(() => view.locator('.tip').isVisible()).toBe(true);
      const [fg, bg] = await view.locator('.tip').evaluate((tip) => {
        const style = (globalThis as any).getComputedStyle(tip);
        return [style.color as string, style.backgroundColor as string];
      });
      return contrast(fg, bg);
    };
    // This host's variables have no inverse pair: the view's defaults, which follow the theme, apply.
    expect(await tipContrast()).toBeGreaterThanOrEqual(7);
    await shoot(page, 'chart-dark-hover');
    await page.selectOption('#theme', 'light');
    await view.locator('button.series').hover();
    expect(await tipContrast()).toBeGreaterThanOrEqual(7);
    await shoot(page, 'chart-light-hover');
    await page.close();
  });

  it('approval: nothing is deleted before the click; Approve deletes once; the model learns the outcome', async () => {
    const uri = await storedUri(5000);
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
    const other = await storedUri(4000);
    const retargeted = await callTool('delete_output_approved', { ...sent, arguments: { uri: other } });
    expect(text(retargeted)).toMatch(/does not match this call/);
    expect((await callTool('read_output', { uri: other })).isError).toBeUndefined();
    await page.close();
  });

  it('approval: times read as the output viewer shows them, local; a long proof in the host log wraps', async () => {
    const link = await storedReport(3000);
    const iso = link._meta['mcp-lambda-template/output'].expiresAt as string;
    const local = new Date(iso).toLocaleString('en-US', { timeZone: 'Asia/Tokyo' });
    const { page, view } = await open('delete_output', { uri: link.uri }, { timezoneId: 'Asia/Tokyo' });
    await expect
      .poll(() => view.locator('.what').textContent(), { timeout: 15_000 })
      .toContain(`kept until ${local})`);
    expect(await view.locator('.what').textContent()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    await view.locator('button.approve').click();
    await expect.poll(() => view.locator('.status').textContent()).toContain(`kept until ${local})`);
    // The model is told the server's own words, ISO time and all.
    await expect
      .poll(() => page.locator('#log li[data-kind="model context"]').textContent())
      .toContain(`kept until ${iso})`);
    // The logged call carries the proof, one long word: the page wraps it and does not scroll sideways.
    expect(await page.locator('#log li[data-kind="view called"]').textContent()).toMatch(/"proof":"\S{60,}"/);
    const sideways = () =>
      page.evaluate(() => {
        const root = (globalThis as any).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
    expect(await sideways()).toBe(0);
    await shoot(page, 'approval-local-times');
    await page.close();
  });

  it('approval: Reject deletes nothing, and the proposal cannot be approved after', async () => {
    const uri = await storedUri(5000);
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
    const uri = await storedUri(3000);
    const { page, view } = await open('delete_output', { uri }, { clockAheadMs: 60 * 60_000 });
    await expect.poll(() => view.locator('button.approve').isEnabled(), { timeout: 15_000 }).toBe(true);
    expect(await view.locator('.deadline').textContent()).toMatch(/^Decide within (10:00|9:[0-5]\d)\.$/);
    await view.locator('button.approve').click();
    await expect.poll(() => view.locator('.status').textContent()).toMatch(/^Deleted the stored output/);
    await page.close();
    // A browser, a view host and an MCP server on one machine: beside a CI run and the stress step each step takes
    // many seconds. Nothing here waits a fixed time; the person's ten minutes are the server's, not the test's.
  }, 90_000);

  it('approval: when the approval went through but its answer was lost, the view does not say it was not sent', async () => {
    const uri = await storedUri(3000);
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

/** The WCAG contrast ratio of two computed colours (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = color
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
