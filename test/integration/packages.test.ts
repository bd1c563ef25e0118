import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAll, type Packed } from '../../release/pack.ts';
import { RELEASE_ORDER, SOURCE_CONDITION } from '../../release/manifest.ts';
import { npmName, ROOT } from '../support/packages.ts';

/**
 * The packages as users get them: built, staged and packed as the release workflow publishes them, then unpacked
 * where a plain Node.js (no tsx, no source condition) imports every face, and a TypeScript app type-checks against
 * their declarations. The packages' own suites test their behaviour on the sources; this tests that the built files
 * are the same packages.
 */
// Inside the repository, so that the unpacked packages find their dependencies in its node_modules.
mkdirSync(join(ROOT, '.local'), { recursive: true });
const APP = mkdtempSync(join(ROOT, '.local', 'packed-app-'));
let packed: Packed[];

/** A plain Node.js: without the repository's NODE_OPTIONS, a face resolves only to its built files. */
function plainNode(args: string[]): string {
  const env = { ...process.env, NODE_OPTIONS: '' };
  return execFileSync(process.execPath, args, { cwd: APP, env, encoding: 'utf8' });
}

beforeAll(() => {
  packed = packAll(join(APP, 'packs'));
  for (const p of packed) {
    const into = join(APP, 'node_modules', p.name);
    mkdirSync(into, { recursive: true });
    execFileSync('tar', ['-xzf', join(APP, 'packs', p.filename), '-C', into, '--strip-components=1']);
  }
}, 600_000);
afterAll(() => rmSync(APP, { recursive: true, force: true }));

const manifestOf = (name: string) =>
  JSON.parse(readFileSync(join(APP, 'node_modules', name, 'package.json'), 'utf8'));

describe('the packages as published', () => {
  it('are packed in dependency order, one tarball each', () => {
    expect(packed.map((p) => p.name)).toEqual(RELEASE_ORDER.map(npmName));
  });

  // The scaffolder ships its template too: the root's app files, made into dist/template/ by its build. The dev
  // package ships the load scenarios' JSON Schema and an example scenario (scenarios/).
  it('ship built files, README, CHANGELOG and LICENSE only, the scaffolder its template, dev its scenarios', () => {
    for (const p of packed) {
      const template = (path: string) => p.name === npmName('create') && path.startsWith('dist/template/');
      const scenarios = (path: string) =>
        p.name === npmName('dev') && /^scenarios\/[\w.-]+\.json$/.test(path);
      const other = p.files
        .map((f) => f.path)
        .filter((path) => !/^dist\/.+\.(js|d\.ts|css)$/.test(path) && !/^bin\/[\w-]+\.js$/.test(path))
        .filter((path) => !template(path) && !scenarios(path));
      expect(other.sort(), p.name).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
      expect(
        p.files.some((f) => f.path.startsWith('src/')),
        p.name,
      ).toBe(false);
    }
  });

  it('have manifests for users: built faces only, no development scripts or dependencies', () => {
    for (const p of packed) {
      const manifest = manifestOf(p.name);
      expect(manifest.private, p.name).toBeUndefined();
      expect(manifest.scripts, p.name).toBeUndefined();
      expect(manifest.devDependencies, p.name).toBeUndefined();
      expect(JSON.stringify(manifest.exports), p.name).not.toContain(SOURCE_CONDITION);
      const files = new Set(p.files.map((f) => f.path));
      for (const targets of Object.values(manifest.exports as Record<string, Record<string, string>>))
        for (const target of Object.values(targets)) expect(files, target).toContain(target.slice(2));
    }
  });

  it('load every face in a plain Node.js', () => {
    const specifiers = packed.flatMap((p) =>
      Object.keys(manifestOf(p.name).exports).map((face) => p.name + face.slice(1)),
    );
    // A face that reads the app's files when loaded (cdk's testing kit reads cdk.json) gets an app's.
    writeFileSync(join(APP, 'cdk.json'), '{"app":"true","context":{}}');
    writeFileSync(
      join(APP, 'load.mjs'),
      `for (const s of ${JSON.stringify(specifiers)}) console.log(s, Object.keys(await import(s)).length);`,
    );
    const lines = plainNode(['load.mjs']).trim().split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual(specifiers);
    // Every face names something (./protocol holds types only, so it loads empty).
    for (const line of lines.filter((l) => !l.startsWith('@mcp-lambda/server/protocol ')))
      expect(Number(line.split(' ')[1]), line).toBeGreaterThan(0);
  });

  it('type-check an app against their declarations, without skipping them', () => {
    writeFileSync(
      join(APP, 'app.ts'),
      [
        "import { defineTool, ToolError } from '@mcp-lambda/server';",
        "import { createMcpFunction } from '@mcp-lambda/server/lambda';",
        "import { createAuthorizationFunction } from '@mcp-lambda/bridge';",
        "import { McpEndpoint, readSettings } from '@mcp-lambda/cdk';",
        "import { startLocalServer } from '@mcp-lambda/dev';",
        'export const shout = defineTool({',
        "  name: 'shout', description: 'Says it louder.',",
        "  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,",
        "  handler: async ({ text }) => { if (!text) throw new ToolError('empty'); return text.toUpperCase(); },",
        '});',
        'export const parts = [createMcpFunction, createAuthorizationFunction, McpEndpoint, readSettings, startLocalServer];',
      ].join('\n'),
    );
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2023', 'ESNext.Disposable'],
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['app.ts'],
    };
    writeFileSync(join(APP, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: APP, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 120_000);
});
