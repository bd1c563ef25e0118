import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where the browser tests find Chromium: Debian's package (`apt-get install -y chromium`), as `.ci/run` installs it. */
const CHROMIUM = '/usr/bin/chromium';

/**
 * The browser for a browser test file, or undefined to skip it. Locally a missing browser skips the file, saying
 * so; under `CI=true` it fails the run instead, so a CI without the browser can never pass by skipping.
 */
export function requireChromium(file: string): string | undefined {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.env.CI === 'true')
    throw new Error(
      `${file}: ${CHROMIUM} is missing, and CI=true does not skip browser tests (apt-get install -y chromium)`,
    );
  console.warn(`${file} skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  return undefined;
}

/**
 * Chromium headless as every browser test, bench part and screenshot here runs it: as root (no sandbox), and with
 * nothing that reaches out on its own (these machines have no network but the package registries).
 */
export function launchChromium(executablePath: string = CHROMIUM): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
