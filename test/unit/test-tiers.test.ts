import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;

/** Every `*.test.ts` below test/, relative to the project root. */
function testFiles(folder = join(ROOT, 'test')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

/** The `test:<tier>` scripts and the path filters each passes to `vitest run`. */
const tiers = Object.entries(scripts)
  .filter(([name]) => name.startsWith('test:'))
  .map(([name, command]) => {
    const match = /^vitest run((?: test\/[\w/.-]+)+)$/.exec(command);
    expect(match, `${name} is "vitest run" with path filters`).not.toBeNull();
    return { name, filters: match![1]!.trim().split(' ') };
  });

describe('test tiers', () => {
  it('npm test runs every test file (no filter)', () => {
    expect(scripts.test).toBe('vitest run');
  });

  it('every test file runs in exactly one npm run test:<tier> script', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const owners = tiers.filter((tier) => tier.filters.some((filter) => file.startsWith(`${filter}/`)));
      expect(
        owners.map((o) => o.name),
        file,
      ).toHaveLength(1);
    }
  });
});
