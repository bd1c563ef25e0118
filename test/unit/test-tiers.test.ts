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

/** The tier `npm test` leaves out (vitest.config.ts): it runs with a configuration of its own. */
const REGISTRY_TIER = 'test/registry';

/** The `test:<tier>` scripts, the configuration each names if any, and the path filters it passes to `vitest run`. */
const tiers = Object.entries(scripts)
  .filter(([name]) => name.startsWith('test:'))
  .map(([name, command]) => {
    const match = /^(.+?)(?: --config (\S+))?((?: test\/[\w/.-]+)+)$/.exec(command);
    expect(match?.[1], `${name} is "${VITEST}" with path filters`).toBe(VITEST);
    return { name, config: match![2], filters: match![3]!.trim().split(' ') };
  });

describe('test tiers', () => {
  it("npm test runs every test file (no filter) but the registry tier's, on the Node.js of .nvmrc", () => {
    expect(scripts.test).toBe(VITEST);
    const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
    expect(config).toContain(`exclude: [...configDefaults.exclude, '${REGISTRY_TIER}/**']`);
    const registry = tiers.filter((tier) => tier.config);
    expect(registry).toEqual([
      { name: 'test:registry', config: `${REGISTRY_TIER}/vitest.config.ts`, filters: [REGISTRY_TIER] },
    ]);
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
