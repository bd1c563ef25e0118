import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { npmName, packages, sourceOf, SOURCE_CONDITION } from '../support/packages.ts';

/**
 * The shape of the code, checked: the public surface is one named list, dependencies point inward, and no module
 * or function grows past what one reading can hold (docs/architecture.md).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE_INFO = packages();
const PACKAGES = PACKAGE_INFO.map((p) => p.folder);
/** Each package's face: the source files its package.json `exports` names, and nothing else may be imported from it. */
const PUBLIC_MODULES = PACKAGE_INFO.flatMap(({ folder, manifest }) =>
  Object.values(manifest.exports).map((targets) => join('packages', folder, sourceOf(targets))),
);
/** Each package's export subpaths (`.`, `./auth`, …), by package folder name. */
const SUBPATHS: Record<string, string[]> = Object.fromEntries(
  PACKAGE_INFO.map(({ folder, manifest }) => [folder, Object.keys(manifest.exports)]),
);

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts'))
    .map((f) => join(folder, f).split('\\').join('/'));
}

/** Every package's sources. */
const LIBRARY = PACKAGES.flatMap((p) => sources(`packages/${p}/src`));

/** Each package's own tests and their helpers (packages/<name>/test). */
const PACKAGE_TESTS = PACKAGES.filter((p) => existsSync(join(root, 'packages', p, 'test'))).flatMap((p) =>
  sources(`packages/${p}/test`),
);

/** The app's own code: its tools, resources and views (src/), generated files aside. */
const APP = sources('src');

/** The template's tests, their helpers and the tools beside them (bench, stress, conformance). */
const ROOT_TESTS = sources('test');

/** Every file held to the import rules: the packages and their tests, the app, the entries, the CDK app, the tests. */
const IMPORTERS = [
  ...LIBRARY,
  ...PACKAGE_TESTS,
  ...APP,
  ...sources('functions'),
  ...sources('infra'),
  ...ROOT_TESTS,
];

/**
 * Root files that still reach into a package's internals, each with why. The list only shrinks: an entry whose file
 * no longer reaches fails too, so it goes with the reach.
 */
const KNOWN_REACHES: Record<string, string> = {
  'test/bench/baselines/tools.ts':
    "the SDK baselines shape their results with the server's own toCallToolResult, so both sides answer alike",
  'test/bench/children/cold-start.ts':
    "a probe times a fresh process, so it carries the load command's classifier alone: the whole load face (113 KB) made every server's load+init about 5 ms slower",
  'test/bench/children/warm.ts':
    "a probe carries the load command's classifier alone, not the whole load face, as the cold-start probe does",
  'test/bench/existence.ts':
    "it times a refused read beside a bare storage read of the same key, built by the read path's own query parser",
  'test/bench/tasks.ts': "it times the task store's record, claim and settle steps, which no face exports",
  'test/unit/precompiled-validators.test.ts':
    'it holds the generated validators against the runtime schema compiler and the registry, which no face exports',
};

/**
 * The code held to the size rules: every package, the app, the template's functions and CDK app, and the tools
 * that run beside them (bench, stress; the load test is the dev package's); tests and generated files aside.
 */
const SIZED = [
  ...LIBRARY,
  ...APP,
  ...['functions', 'infra', 'test/bench', 'test/stress'].flatMap(sources),
].filter((file) => !file.endsWith('.test.ts'));

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

  // One entry file per face: its source (this repository's condition), and the declarations and module `tsc` builds
  // from it at the same place under dist/ (packages/tsconfig.build.json), which is what users import.
  it.each(PACKAGES)('packages/%s exports only its face: one entry file per export, each in src/', (name) => {
    const { manifest } = PACKAGE_INFO.find((p) => p.folder === name)!;
    expect(manifest.name).toBe(npmName(name));
    for (const [subpath, targets] of Object.entries(manifest.exports)) {
      expect(subpath, `${name} ${subpath}`).toMatch(/^\.(\/[a-z-]+)?$/);
      const source = sourceOf(targets);
      expect(source, `${name} ${subpath}`).toMatch(/^\.\/src\/[\w/-]+\.ts$/);
      const built = source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '');
      expect(targets, `${name} ${subpath}`).toStrictEqual({
        [SOURCE_CONDITION]: source,
        types: `${built}.d.ts`,
        import: `${built}.js`,
      });
    }
  });

  // A package reaches another only by its name (`@mcp-lambda/server`), which resolves to the other's face alone;
  // the template (src/, functions/, infra/, test/) reaches every package that way too. A relative path across the
  // boundary would bypass the face. A package's own tests may use its internals: they live inside its boundary.
  it.each(IMPORTERS)('%s imports other packages only through their faces', (file) => {
    const home = /^packages\/[^/]+\//.exec(file)?.[0];
    const crossing = specifiers(file)
      .map((s) => target(file, s))
      .filter((t): t is string => t !== undefined)
      .filter((t) => (home ? !t.startsWith(home) : t.startsWith('packages/')));
    if (file in KNOWN_REACHES)
      expect(crossing, `listed in KNOWN_REACHES: ${KNOWN_REACHES[file]}`).not.toEqual([]);
    else expect(crossing).toEqual([]);
  });

  it('lists only files that exist as known reaches', () => {
    expect(Object.keys(KNOWN_REACHES).filter((file) => !ROOT_TESTS.includes(file))).toEqual([]);
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
    expect(crossing('packages/bridge/test/unit/seal.test.ts', '../../src/seal.ts')).toBe(false);
    expect(crossing('packages/bridge/test/unit/seal.test.ts', '../../../server/src/log.ts')).toBe(true);
    expect(crossing('test/unit/tool.test.ts', '../../packages/server/src/index.ts')).toBe(true);
  });

  // Each name a package is imported by resolves through its package.json `exports`: `@mcp-lambda/server/auth` is
  // a face, a deep path into the package (its source files by name) is not.
  it.each(IMPORTERS)('%s names only the faces of the packages it imports', (file) => {
    const named = specifiers(file).filter((s) => s.startsWith('@mcp-lambda/'));
    const unknown = named.filter((s) => {
      const [, name, subpath] = /^@mcp-lambda\/([^/]+)(\/.*)?$/.exec(s)!;
      return !SUBPATHS[name!]?.includes(`.${subpath ?? ''}`);
    });
    expect(unknown).toEqual([]);
  });

  // The CDK app builds the stack from the package faces and its own settings; of the template it reads only the
  // tool list it hands the stack (the constructs never see the example tools).
  it.each(sources('infra'))('%s reaches the template only for its tool list', (file) => {
    const reached = specifiers(file)
      .map((s) => target(file, s))
      .filter((t): t is string => t !== undefined && !t.startsWith('infra/'));
    expect(reached.filter((t) => t !== 'src/tools/index.ts')).toEqual([]);
  });

  // A package's tests test it with fixtures of their own, so they pass whatever the template holds, and go with the
  // package when it is replaced or published.
  it.each(PACKAGE_TESTS)(
    '%s (a package test) imports nothing of the template: src/, functions/, infra/, test/',
    (file) => {
      const outward = specifiers(file)
        .map((s) => target(file, s))
        .filter((t) => t !== undefined && /^(src|functions|infra|test)\//.test(t));
      expect(outward).toEqual([]);
    },
  );

  it.each(LIBRARY)('%s imports nothing from src/, functions/ or infra/', (file) => {
    const outward = specifiers(file)
      .map((s) => target(file, s))
      .filter((t) => t !== undefined && /^(src|functions|infra)\//.test(t));
    expect(outward).toEqual([]);
  });

  // The app is what the entries, the CDK app and the tests import; it never reaches back up into any of them, so
  // it reads the same whichever entry (or test) loads it.
  it.each(APP)('%s (the app) imports nothing from functions/, infra/ or test/', (file) => {
    const outward = specifiers(file)
      .map((s) => target(file, s))
      .filter((t) => t !== undefined && /^(functions|infra|test)\//.test(t));
    expect(outward).toEqual([]);
  });
});

/** What breaks the size rules in a source text: more than 300 lines, or a function over 80. */
function sizeProblems(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const problems: string[] = [];
  // Lines as an editor or `wc -l` counts them: a final newline ends the last line, it does not start another.
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > 300) problems.push(`${lines} lines`);
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > 80) problems.push(`function at line ${first + 1}: ${last - first + 1} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

describe('sizes that one reading can hold', () => {
  it.each(SIZED)('%s has at most 300 lines and no function over 80', (file) => {
    expect(sizeProblems(file, readFileSync(join(root, file), 'utf8'))).toEqual([]);
  });

  it('covers every package, the app, the functions, the CDK app and the tools', () => {
    const folders = new Set(
      SIZED.map((file) =>
        file
          .split('/')
          .slice(0, file.startsWith('test/') ? 2 : 1)
          .join('/'),
      ),
    );
    expect([...folders].sort()).toEqual([
      'functions',
      'infra',
      'packages',
      'src',
      'test/bench',
      'test/stress',
    ]);
    expect(new Set(SIZED.filter((f) => f.startsWith('packages/')).map((f) => f.split('/')[1]))).toEqual(
      new Set(PACKAGES),
    );
  });

  it('finds a long function and a long file (the rule above, checked on samples)', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(sizeProblems('a.ts', `function f() {\n${body(80)}\n}\n`)).toEqual([]);
    expect(sizeProblems('a.ts', `function f() {\n${body(81)}\n}\n`)).toEqual([
      'function at line 1: 81 lines',
    ]);
    expect(sizeProblems('a.ts', 'const x = 1;\n'.repeat(300))).toEqual([]);
    expect(sizeProblems('a.ts', 'const x = 1;\n'.repeat(301))).toEqual(['301 lines']);
  });

  it('the dispatcher is the method table, availability and error mapping: under 150 lines', () => {
    expect(
      readFileSync(join(root, 'packages/server/src/dispatcher.ts'), 'utf8').split('\n').length,
    ).toBeLessThan(150);
  });
});

describe('a thin app: the machinery lives in the packages, where an upgrade reaches it', () => {
  // Everything in functions/ is an entry: the app's own code lives in src/, the machinery in the packages.
  const wiring = sources('functions');

  // An entry is one call that builds its handler from the environment (createMcpFunction, …) and the app's parts.
  it.each(wiring)('%s has at most 30 lines', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    expect(text.split('\n').length - (text.endsWith('\n') ? 1 : 0)).toBeLessThanOrEqual(30);
  });

  // The app's parts come from src/, never from another function's folder: each entry stands alone.
  it.each(wiring)('%s takes the app from src/ only', (file) => {
    const reached = specifiers(file)
      .map((s) => target(file, s))
      .filter((t) => t !== undefined);
    expect(reached.filter((t) => !t.startsWith('src/'))).toEqual([]);
  });

  it('covers every function entry', () => {
    const entries = [
      'mcp/handler',
      'mcp/streaming',
      'worker/handler',
      'companion/handler',
      'authorization/handler',
    ];
    expect([...wiring].sort()).toEqual(entries.map((entry) => `functions/${entry}.ts`).sort());
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
