import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createOffloader, silentLogger } from '@mcp-lambda/server/lambda';
import { requireChromium } from '../support/chromium.ts';
import { useViewsBrowser } from '../support/views-browser.ts';

/**
 * The output viewer's search and previews in a real headless browser, hosted as views-browser.test.ts hosts every
 * view: search marks its matches in the table itself, numbered as the table is, and an SVG stored as text is
 * previewed as an image whose scripts never run.
 */

const chromiumPath = requireChromium('views-output.test.ts');

/** An SVG that would log if its handler or script ran anywhere. */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" onload="console.log(\'svg ran onload\')">' +
  '<script>console.log("svg ran a script")</script>' +
  '<rect width="120" height="60" fill="#286ec8"/><text x="12" y="38" fill="#fff">SVG</text></svg>';

const count = (n: number) => n.toLocaleString('en-US');

describe.skipIf(!chromiumPath)('the output viewer in a real browser', () => {
  const { open, s3, shoot } = useViewsBrowser(chromiumPath);

  /** Searches, and resolves with what the search bar then says. */
  const search = async (view: FrameLocator, text: string, says: string) => {
    await view.locator('input[type="search"]').fill(text);
    await view.locator('input[type="search"]').press('Enter');
    await expect.poll(() => view.locator('.search .where').textContent()).toBe(says);
  };
  const step = async (view: FrameLocator, button: string, says: string) => {
    await view.locator('.search button', { hasText: button }).click();
    await expect.poll(() => view.locator('.search .where').textContent()).toBe(says);
  };
  /** The marked row's `#`, and whether it is in sight in the scrolled body (below the sticky header). */
  const marked = (view: FrameLocator) =>
    view.locator('.body').evaluate((body) => {
      const hit = body.querySelector('.hit');
      const row = hit?.getBoundingClientRect();
      const frame = body.getBoundingClientRect();
      const header = body.querySelector('thead')!.getBoundingClientRect();
      const inSight = !!row && row.top >= header.bottom - 1 && row.bottom <= frame.bottom + 1;
      return { n: hit?.querySelector('.n')?.textContent, inSight };
    });
  const reads = (page: Page) => page.locator('#log li[data-kind="view called"]').count();

  it('search steps through the matches in the table, each row marked and in sight, the count kept', async () => {
    const { page, view } = await open('generate_report', { rows: 20_000 });
    await expect
      .poll(() => view.locator('.nav .where').textContent(), { timeout: 15_000 })
      .toBe('Rows 1–50 of 20,000');
    // The header is not a row: a column's name matches none.
    await search(view, 'region', 'No matches for "region".');
    // Day 05 is on every 28th row from row 4.
    const rows = Array.from({ length: 20_000 }, (_, i) => i + 1).filter((i) => i % 28 === 4);
    const of = `of ${count(rows.length)}`;
    await search(view, ',2026-11-05,', `Match 1 ${of}: row 4`);
    expect(await marked(view)).toEqual({ n: '4', inSight: true });
    // The next match is on the page shown: marked and scrolled to, with no read.
    const before = await reads(page);
    await step(view, 'Next match', `Match 2 ${of}: row 32`);
    expect(await marked(view)).toEqual({ n: '32', inSight: true });
    expect(await reads(page)).toBe(before);
    expect(await view.locator('.search button', { hasText: 'Previous match' }).isEnabled()).toBe(true);
    await shoot(page, 'output-viewer-search-marked');

    // Past the first 20 matches the view asks read_output for more, from where they stopped.
    for (let k = 3; k <= 21; k++)
      await step(view, 'Next match', `Match ${k} ${of}: row ${count(rows[k - 1]!)}`);
    expect(await marked(view)).toEqual({ n: count(rows[20]!), inSight: true });
    await step(view, 'Previous match', `Match 20 ${of}: row ${count(rows[19]!)}`);
    expect(await marked(view)).toEqual({ n: count(rows[19]!), inSight: true });
    expect(await view.locator('.status').textContent()).toBe('');
    await page.selectOption('#theme', 'dark');
    await shoot(page, 'output-viewer-search-marked-dark');
    await page.close();
    // A 20,000-row report made, stored and shown, then two searches and 21 steps, each rendered by the browser (the
    // searches and the step past match 20 read through read_output): some 7 s of real work on a quiet machine,
    // several times that on a busy one.
  }, 120_000);

  it('an SVG stored as text is previewed as an image, under the default CSP, its scripts never run', async () => {
    const offloader = createOffloader({
      storage: s3().storage(),
      prefix: 'outputs/',
      thresholdBytes: 1024,
      ttlDays: 1,
    });
    const link = await offloader.store(
      { data: SVG, mimeType: 'image/svg+xml', name: 'drawing.svg' },
      { tool: 'draw', requestId: 'svg-test', log: silentLogger },
    );
    const logged: string[] = [];
    // The host is handed a result linking the stored SVG, as a tool that drew it would answer.
    const { page, view } = await open(
      'generate_report',
      { rows: 1 },
      {
        before: async (page) => {
          page.on('console', (message) => logged.push(message.text()));
          await page.route('**/mcp', (route) => {
            const body = route.request().postDataJSON();
            if (body?.method !== 'tools/call' || body.params?.name !== 'generate_report')
              return route.fallback();
            const result = { content: [{ type: 'text', text: 'A drawing.' }, link] };
            return route.fulfill({
              contentType: 'application/json',
              body: JSON.stringify({ jsonrpc: '2.0', id: body.id, result }),
            });
          });
        },
      },
    );
    const image = view.locator('img.preview');
    await expect
      .poll(() => image.getAttribute('src'), { timeout: 15_000 })
      .toMatch(/^data:image\/svg\+xml,%3Csvg/);
    await expect.poll(() => image.evaluate((img) => (img as any).naturalWidth)).toBe(120);
    expect(await image.getAttribute('alt')).toBe(link.title ?? link.name);
    // Never markup in the view's document: no svg element, no script of its own, no CSP refusal.
    expect(await view.locator('svg').count()).toBe(0);
    expect(await view.locator('.status').textContent()).toBe('');
    expect(logged.filter((t) => /svg ran|Content.Security.Policy/i.test(t))).toEqual([]);
    await shoot(page, 'output-viewer-svg');
    await page.selectOption('#theme', 'dark');
    await shoot(page, 'output-viewer-svg-dark');
    await page.close();
  });
});
