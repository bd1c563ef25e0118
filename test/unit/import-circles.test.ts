import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * No import circles anywhere: a module is understood (and tested, and loaded) after the modules it imports. Every
 * edge counts: static imports, type-only imports and `import()`, across packages through their names (dpdm resolves
 * `@mcp-lambda/server` to the package's face).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['packages', 'src', 'functions', 'infra', 'test'];

/** The circles among the TypeScript modules under `folders` of `context`, each as the files it passes through. */
async function circles(context: string, folders: readonly string[]): Promise<string[][]> {
  const tree = await parseDependencyTree(
    folders.map((folder) => join(context, folder, '**/*.ts')),
    { context, transform: false, skipDynamicImports: false, tsconfig: join(root, 'tsconfig.json') },
  );
  return parseCircular(tree, false);
}

describe('import circles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'import-circles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // Parsing every module of the repository: 25 s of real CPU work on a busy machine, more beside a CI run.
  it('the repository has none (packages, the app, functions, infra and the tests)', async () => {
    expect((await circles(root, FOLDERS)).map((circle) => circle.join(' -> '))).toEqual([]);
  }, 120_000);

  it.each([
    ['a static import', `import { b } from './b.ts';`],
    ['a type-only import', `import type { B } from './b.ts';`],
    ['an import()', `export const load = () => import('./b.ts');`],
  ])('the check finds a circle closed by %s', async (_, edge) => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    writeFileSync(join(dir, 'a.ts'), `${edge}\nexport const a = 1;\n`);
    writeFileSync(
      join(dir, 'b.ts'),
      `import { a } from './a.ts';\nexport const b = a;\nexport type B = number;\n`,
    );
    expect((await circles(dir, ['.'])).map((circle) => [...circle].sort())).toEqual([['a.ts', 'b.ts']]);
  });
});
