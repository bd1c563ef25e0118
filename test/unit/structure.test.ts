import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The shape of the code, checked: the public surface is one named list, dependencies point inward, and no module
 * or function grows past what one reading can hold (docs/architecture.md).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGES = readdirSync(join(root, 'packages'));
/** Each package's face: the files its package.json `exports` names, and nothing else may be imported from it. */
const FACES = Object.fromEntries(
  PACKAGES.map((name) => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    return [
      name,
      Object.values(manifest.exports as Record<string, string>).map((f) => join('packages', name, f)),
    ];
  }),
);
const PUBLIC_MODULES = Object.values(FACES).flat();

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts'))
    .map((f) => join(folder, f).split('\\').join('/'));
}

/** The packages held to the structure rules so far (the CDK constructs join them once split by concern). */
const LIBRARY = ['packages/server/src', 'packages/bridge/src', 'packages/dev/src'].flatMap(sources);

const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);

/** Every module specifier a file imports or re-exports, statically or with `import()`. */
function specifiers(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      found.push((node.moduleSpecifier as ts.StringLiteral).text);
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

/** The repository-relative file a relative specifier names; undefined for packages and builtins. */
const target = (file: string, specifier: string) =>
  specifier.startsWith('.')
    ? relative(root, resolve(root, dirname(file), specifier))
        .split('\\')
        .join('/')
    : undefined;

describe('the public surface', () => {
  it.each(PUBLIC_MODULES)('%s names every export: no wildcard re-exports', (file) => {
    expect(readFileSync(join(root, file), 'utf8')).not.toMatch(/export\s+(type\s+)?\*/);
  });

  it.each(PACKAGES)('packages/%s exports only its face: one entry file per export, each in src/', (name) => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
    expect(manifest.name).toBe(`@mcp-lambda/${name}`);
    expect(manifest.private).toBe(true);
    for (const [subpath, file] of Object.entries(manifest.exports as Record<string, string>)) {
      expect(subpath, `${name} ${subpath}`).toMatch(/^\.(\/[a-z-]+)?$/);
      expect(file, `${name} ${subpath}`).toMatch(/^\.\/src\/[\w/-]+\.ts$/);
    }
  });

  // A package reaches another only by its name (`@mcp-lambda/server`), which resolves to the other's face alone;
  // the template (functions/, infra/) reaches every package that way too. A relative path across the boundary would
  // bypass the face.
  it.each([
    ...PACKAGES.flatMap((p) => sources(`packages/${p}/src`)),
    ...sources('functions'),
    ...sources('infra'),
  ])('%s imports other packages only through their faces', (file) => {
    const home = /^packages\/[^/]+\//.exec(file)?.[0];
    const crossing = specifiers(file)
      .map((s) => target(file, s))
      .filter((t): t is string => t !== undefined)
      .filter((t) => (home ? !t.startsWith(home) : t.startsWith('packages/')));
    expect(crossing).toEqual([]);
  });

  it('refuses a relative import of another package internals (the rule above, checked on a sample)', () => {
    const crossing = (file: string, specifier: string) => {
      const home = /^packages\/[^/]+\//.exec(file)?.[0];
      const t = target(file, specifier)!;
      return home ? !t.startsWith(home) : t.startsWith('packages/');
    };
    expect(crossing('packages/bridge/src/token.ts', '../../server/src/limits.ts')).toBe(true);
    expect(crossing('functions/mcp/handler.ts', '../../packages/server/src/server.ts')).toBe(true);
    expect(crossing('packages/bridge/src/token.ts', './limits.ts')).toBe(false);
  });

  it.each(LIBRARY)('%s imports nothing from functions/ or infra/', (file) => {
    const outward = specifiers(file)
      .map((s) => target(file, s))
      .filter((t) => t !== undefined && /^(functions|infra)\//.test(t));
    expect(outward).toEqual([]);
  });
});

describe('sizes that one reading can hold', () => {
  it.each(LIBRARY)('%s has at most 300 lines and no function over 80', (file) => {
    const source = parse(file);
    const long: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (last - first + 1 > 80) long.push(`line ${first + 1}: ${last - first + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(source.getLineAndCharacterOfPosition(source.getEnd()).line + 1).toBeLessThanOrEqual(300);
    expect(long).toEqual([]);
  });

  it('the dispatcher is the method table, availability and error mapping: under 150 lines', () => {
    expect(
      readFileSync(join(root, 'packages/server/src/dispatcher.ts'), 'utf8').split('\n').length,
    ).toBeLessThan(150);
  });
});

describe('era differences live in the codecs and the transport', () => {
  // A comparison with an era name, or of an `era` value: a branch on the protocol era.
  const ERA_CHECK = /(\bera\s*[!=]==)|([!=]==\s*'(handshake|stateless)')|('(handshake|stateless)'\s*[!=]==)/;
  const allowed = (file: string) =>
    file.startsWith('packages/server/src/codec/') || file.startsWith('packages/server/src/http/');

  it.each(sources('packages/server/src').filter((f) => !allowed(f)))(
    '%s does not branch on the era',
    (file) => {
      const lines = readFileSync(join(root, file), 'utf8')
        .split('\n')
        .map((line, i) => [i + 1, line] as const)
        .filter(([, line]) => ERA_CHECK.test(line))
        .map(([n, line]) => `${n}: ${line.trim()}`);
      expect(lines).toEqual([]);
    },
  );
});
