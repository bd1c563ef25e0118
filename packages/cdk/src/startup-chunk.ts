/**
 * How a function's code is cut into chunks, decided here once so that source code never has to: lazy loading is a
 * plain `await import()` of a relative module at the one place that needs it.
 *
 * esbuild's code splitting puts each module in a chunk by the set of entry points that reach it through static
 * imports, and every `import()` target is an entry point of its own. Left alone, each lazily loaded module cuts the
 * start-up code it happens to share with the handler into chunks of their own (the offloader's writer shares the
 * limits and the output URIs, the tasks extension the tool registry, OAuth the scopes, …): nine files at start-up
 * instead of two, and every file is a module load of its own in a cold start (about 0.2 ms each). This plugin bundles
 * each lazily loaded module of the project as if it also imported the package faces the function's entry imports:
 * all start-up code then has the same entry points, so it stays in one chunk beside `index.mjs`. Nothing changes at
 * run time: the faces are loaded before any `import()` runs, and they use no top-level await, so a lazily loaded
 * module never waits on the module that imports it. An `import()` in a module the function keeps no code of (a face
 * re-exports its whole package, so most functions hold many such modules) never runs: it gets no chunk, since its
 * code would otherwise count as used and land in the start-up chunk wherever it shares a file with start-up code.
 * For the same reason (esbuild places whole files), code only a lazily loaded module uses belongs in a file the
 * start-up code does not import: a helper beside start-up code in one file loads with every cold start.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { buildSync, type BuildOptions, type Plugin } from 'esbuild';

/** The scope of this project's packages: their faces are what the start-up chunk is built around. */
const PACKAGE_SCOPE = '@mcp-lambda/';

/** The namespace of the stand-in modules that give a lazily loaded module its faces. */
const LAZY = 'lazy-module';

/** The package faces a function's entry imports, directly or through the project's own modules. */
function facesOf(entry: string, root: string): string[] {
  const { metafile } = buildSync({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports);
  const faces = imports.filter((item) => item.external && item.path.startsWith(PACKAGE_SCOPE));
  return [...new Set(faces.map((item) => item.path))].sort();
}

/**
 * The project modules of a function that hold code it can run: one bundle of the entry with the function's own
 * settings but no code splitting, where a lazily loaded module is inlined (so every module reached through a live
 * `import()` counts). A module of which nothing is left there can start no lazy loading.
 */
function liveModules(entry: string, root: string, options: BuildOptions): Set<string> {
  const { metafile } = buildSync({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    outdir: 'live',
    metafile: true,
    platform: options.platform,
    format: options.format,
    target: options.target,
    mainFields: options.mainFields,
    conditions: options.conditions,
    external: options.external,
    treeShaking: true,
    logLevel: 'silent',
  });
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs));
  return new Set(inputs.filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path));
}

/**
 * Whether a module is the project's own: the app's, or one of its packages', which an app installs into
 * node_modules (in this repository they are workspaces, outside it). A dependency's lazy loading is its own business.
 */
function ownModule(path: string): boolean {
  const posix = path.split('\\').join('/');
  return !posix.includes('/node_modules/') || posix.includes(`/node_modules/${PACKAGE_SCOPE}`);
}

/** The stand-in for a lazily loaded module: its exports, and (unused) the faces, so the chunks form as above. */
function standIn(path: string, faces: readonly string[], root: string): string {
  const target = JSON.stringify(`./${path}`);
  const source = readFileSync(resolve(root, path), 'utf8');
  return [
    ...faces.map((face, i) => `import * as face${i} from ${JSON.stringify(face)};`),
    `export * from ${target};`,
    // `export *` leaves out a default export; name it when the module has one.
    ...(/\bexport\s+default\b|\bas\s+default\b/.test(source) ? [`export { default } from ${target};`] : []),
  ].join('\n');
}

/** The esbuild plugin that keeps a function's start-up code in one chunk (see the top of this file). */
export function startupChunk(entry: string): Plugin {
  return {
    name: 'startup-chunk',
    setup(build) {
      const root = build.initialOptions.absWorkingDir ?? process.cwd();
      const faces = facesOf(entry, root);
      if (faces.length === 0) return;
      const live = liveModules(entry, root, build.initialOptions);
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === LAZY) return undefined;
        // An import() in a module of which the function keeps no code never runs: it gets no chunk, so the code
        // it would load cannot enter the start-up chunk through the files that chunk shares with it.
        if (!live.has(relative(root, args.importer))) return { path: args.path, external: true };
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: LAZY,
        });
        if (found.errors.length > 0 || found.external || !ownModule(found.path)) return undefined;
        return { path: relative(root, found.path), namespace: LAZY };
      });
      build.onLoad({ filter: /.*/, namespace: LAZY }, (args) => ({
        contents: standIn(args.path, faces, root),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}
