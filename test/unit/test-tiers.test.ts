import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packages } from '../support/packages.ts';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scripts: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;

/** Every `*.test.ts` below a folder, relative to the project root. */
function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

/** The template's tests (test/) and each package's own (packages/<name>/test), as vitest.config.ts includes them. */
const allTestFiles = () => [
  ...testFiles(join(ROOT, 'test')),
  ...packages()
    .map(({ dir }) => join(dir, 'test'))
    .filter((folder) => existsSync(folder))
    .flatMap((folder) => testFiles(folder)),
];

/** vitest's own rule for a path filter: a test file runs when its path contains the filter. */
const selects = (filter: string, file: string) => file.toLowerCase().includes(filter.toLowerCase());

/** Every test script runs vitest through the runner that brings the Lambda runtime's Node.js (.nvmrc) if needed. */
const VITEST = 'node --import tsx test/support/on-lambda-node.ts vitest run';

/** The `test:<tier>` scripts and the path filters each passes to `vitest run`. */
const tiers = Object.entries(scripts)
  .filter(([name]) => name.startsWith('test:'))
  .map(([name, command]) => {
    const match = /^(.+?)((?: test\/[\w/.-]+)+)$/.exec(command);
    expect(match?.[1], `${name} is "${VITEST}" with path filters`).toBe(VITEST);
    return { name, filters: match![2]!.trim().split(' ') };
  });

describe('test tiers', () => {
  it('npm test runs every test file (no filter), on the Node.js of .nvmrc', () => {
    expect(scripts.test).toBe(VITEST);
  });

  // `test/unit` selects the root's test/unit and every package's test/unit alike: a package's tests keep the tier
  // folders of the root's.
  it('every test file runs in exactly one npm run test:<tier> script', () => {
    const files = allTestFiles();
    expect(files.some((f) => f.startsWith('packages/'))).toBe(true);
    for (const file of files) {
      const owners = tiers.filter((tier) => tier.filters.some((filter) => selects(filter, file)));
      expect(
        owners.map((o) => o.name),
        file,
      ).toHaveLength(1);
    }
  });
});
