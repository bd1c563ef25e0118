/**
 * `node --import tsx test/support/report-screenshot.ts REPORT.html|REPORT.svg OUT.png`: a full-page PNG of a load
 * report (`npm run load -- --report`), taken with a system Chromium (e.g. Debian's `chromium` package) driven by
 * playwright-core, to look at a report where no browser is at hand. Not part of `npm test`: it needs a browser installed. The page is opened offline
 * (every request other than the file itself is refused), which also proves the report fetches nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from './chromium.ts';

const [input, output] = process.argv.slice(2);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!input || !output) {
  console.error('usage: node --import tsx test/support/report-screenshot.ts REPORT.html OUT.png');
  process.exit(2);
}
if (!existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath} (install the chromium package or set CHROMIUM_PATH)`);
  process.exit(2);
}

const browser = await launchChromium(executablePath);
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  const file = pathToFileURL(resolve(input)).href;
  const refused: string[] = [];
  await page.route('**/*', (route) => {
    if (route.request().url() === file) return route.continue();
    refused.push(route.request().url());
    return route.abort();
  });
  if (/\.svg$/i.test(input)) {
    // Chromium's full-page capture stalls on a bare SVG document: show the image inline in a page instead.
    const svg = readFileSync(input, 'utf8');
    await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`, { waitUntil: 'load' });
  } else {
    await page.goto(file, { waitUntil: 'load' });
  }
  await page.screenshot({ path: output, fullPage: true });
  console.error(`screenshot written to ${output}`);
  if (refused.length) {
    console.error(`the report tried to fetch: ${refused.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
