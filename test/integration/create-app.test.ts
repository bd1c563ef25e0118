/**
 * `npm create mcp-lambda`: the app it writes is the root's own app, file for file, but for the declared
 * transforms. Its bin runs as users run it (a process, no terminal, `--no-install`), into a folder outside the
 * repository. A root file nobody classified as the app's or the repository's, a transform gone stale, or an app
 * file that reaches back into the repository fails here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '@mcp-lambda/cdk';
import { generateValidatorModules } from '@mcp-lambda/server/build';
import {
  APP_ONLY,
  APP_PATHS,
  PACKED_NAMES,
  REPOSITORY_ONLY,
  TRANSFORMED,
  TEMPLATE_DIR,
  appCdkJson,
  appInfraReadme,
  appManifest,
  appTsconfig,
  appViewsTsconfig,
  filesBelow,
  makeTemplate,
} from 'create-mcp-lambda/template';
import { ping } from '../../src/tools/ping.ts';
import { repositoryFiles, ROOT } from '../support/packages.ts';

const BIN = join(ROOT, 'packages/create/bin/create-mcp-lambda.js');
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'packages/server/package.json'), 'utf8')).version;
const OUT = mkdtempSync(join(tmpdir(), 'create-app-'));

/** Runs the bin as `npm create` does, with no terminal; answers its exit code and what it printed. */
function create(args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: run.status, out: run.stdout + run.stderr };
}

/** The repository's files as a clone has them. */
const tracked = repositoryFiles();
const under = (path: string) => (file: string) => file === path || file.startsWith(`${path}/`);
const rootText = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The root's files that make the app, by the path the app has them at. */
const APP_FROM_ROOT = tracked.filter((file) => APP_PATHS.some((path) => under(path)(file)));

const read = (app: string, file: string) => readFileSync(join(app, file), 'utf8');

/** Every module specifier of the app's TypeScript files, by file. */
function specifiersOf(app: string): [string, string[]][] {
  return filesBelow(app)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [
      file,
      ts.preProcessFile(read(app, file), true, true).importedFiles.map((f) => f.fileName),
    ]);
}

beforeAll(() => {
  // What `npm run build` does in packages/create: the bin writes from the template it ships.
  makeTemplate(ROOT, TEMPLATE_DIR);
});

describe('the root, as the template sees it', () => {
  it('each tracked root entry is the app’s or the repository’s, never both or neither', () => {
    const entries = new Set(tracked.map((file) => (file.startsWith('test/') ? file : file.split('/')[0]!)));
    const classified = [...APP_PATHS, ...REPOSITORY_ONLY];
    const unclassified = [...entries].filter((entry) => !classified.some((path) => under(path)(entry)));
    expect(unclassified).toEqual([]);
    expect(APP_PATHS.filter((path) => (REPOSITORY_ONLY as readonly string[]).includes(path))).toEqual([]);
  });
});

describe.each([
  { name: 'defaults', args: [], auth: 'oauth', api: 'http', examples: true },
  {
    name: 'every option',
    args: ['--auth', 'none', '--api', 'rest-streaming', '--no-examples'],
    auth: 'none',
    api: 'rest-streaming',
    examples: false,
  },
] as const)('npm create mcp-lambda, $name, --no-install', ({ args, auth, api, examples }) => {
  const app = join(OUT, `app-${auth}-${api}`);
  let printed = '';

  beforeAll(() => {
    const run = create([app, ...args, '--no-install']);
    expect(run.status, run.out).toBe(0);
    printed = run.out;
  });

  it('prints the next three steps', () => {
    expect(printed).toContain(`cd ${app} && npm install`);
    expect(printed).toContain('npm start');
    expect(printed).toContain('npm run deploy');
  });

  it('writes the root’s app files and its own, and nothing else', () => {
    const written = filesBelow(app);
    const modules = Object.keys(generateValidatorModules([ping]).modules);
    const kept = (file: string) =>
      examples ||
      ((/^src\/tools\/(index|ping)\.ts$/.test(file) || !file.startsWith('src/tools/')) &&
        (!file.startsWith('src/generated/validators/') || modules.includes(file.split('/').pop()!)));
    const unpacked = APP_FROM_ROOT.filter(kept);
    expect(written).toEqual([...unpacked, ...APP_ONLY].sort());
    if (!examples) expect(filesBelow(join(app, 'src/tools'))).toEqual(['index.ts', 'ping.ts']);
  });

  it('copies every other file as the root has it: the root and the template never drift apart', () => {
    const changed = ['src/tools/index.ts', 'src/generated/validators.generated.ts'];
    for (const file of filesBelow(app)) {
      if ((TRANSFORMED as readonly string[]).includes(file) || (!examples && changed.includes(file)))
        continue;
      const source = (APP_ONLY as readonly string[]).includes(file)
        ? join(ROOT, 'packages/create/app', file)
        : join(ROOT, file);
      expect(readFileSync(join(app, file)).equals(readFileSync(source)), file).toBe(true);
    }
    expect(Object.keys(PACKED_NAMES).every((file) => filesBelow(app).includes(file))).toBe(true);
  });

  it('writes the transformed files as the transforms make them from the root’s', () => {
    const name = `app-${auth}-${api}`;
    expect(read(app, 'package.json')).toBe(appManifest(rootText('package.json'), { name, version: VERSION }));
    expect(read(app, 'tsconfig.json')).toBe(appTsconfig(rootText('tsconfig.json')));
    expect(read(app, 'tsconfig.views.json')).toBe(appViewsTsconfig(rootText('tsconfig.views.json')));
    expect(read(app, 'cdk.json')).toBe(appCdkJson(rootText('cdk.json'), { auth, api }));
    expect(read(app, 'infra/README.md')).toBe(appInfraReadme(rootText('infra/README.md')));
  });

  it('links from its Markdown only to files the app has', () => {
    for (const file of filesBelow(app).filter((path) => path.endsWith('.md'))) {
      const links = [...read(app, file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
      for (const link of links.filter((target) => !/^[a-z]+:/.test(target)))
        expect(existsSync(join(app, dirname(file), link)), `${file} links to ${link}`).toBe(true);
    }
  });

  it('depends on the @mcp-lambda packages at this release and its patches, with no workspace or path', () => {
    const manifest = JSON.parse(read(app, 'package.json'));
    const all = { ...manifest.dependencies, ...manifest.devDependencies } as Record<string, string>;
    const ours = Object.entries(all).filter(([dep]) => dep.startsWith('@mcp-lambda/'));
    expect(ours.map(([dep]) => dep).sort()).toEqual([
      '@mcp-lambda/bridge',
      '@mcp-lambda/cdk',
      '@mcp-lambda/dev',
      '@mcp-lambda/server',
    ]);
    for (const [dep, range] of ours) expect(range, dep).toBe(`^${VERSION}`);
    expect(manifest.workspaces).toBeUndefined();
    for (const range of Object.values(all)) expect(range).toMatch(/^[\^~]?\d/);
  });

  it('reaches nothing of the repository: no packages/ path, every relative import inside the app', () => {
    for (const file of filesBelow(app)) expect(read(app, file), file).not.toMatch(/(^|[\s"'/])packages\//m);
    for (const [file, specifiers] of specifiersOf(app))
      for (const specifier of specifiers.filter((s) => s.startsWith('.'))) {
        const target = resolve(dirname(join(app, file)), specifier);
        expect(target.startsWith(`${app}/`), `${file}: ${specifier}`).toBe(true);
        expect(filesBelow(app), `${file}: ${specifier}`).toContain(target.slice(app.length + 1));
      }
  });

  it('declares every package its code imports, and every script it runs', () => {
    const manifest = JSON.parse(read(app, 'package.json'));
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    const imported = new Set(
      specifiersOf(app)
        .flatMap(([, specifiers]) => specifiers)
        .filter((s) => !s.startsWith('.') && !s.startsWith('node:'))
        .map((s) =>
          s === 'aws-lambda'
            ? '@types/aws-lambda'
            : s
                .split('/')
                .slice(0, s.startsWith('@') ? 2 : 1)
                .join('/'),
        ),
    );
    expect([...imported].filter((name) => !declared.includes(name))).toEqual([]);
    const scripts = manifest.scripts as Record<string, string>;
    for (const command of Object.values(scripts))
      for (const [, script] of command.matchAll(/npm run ([\w:-]+)/g))
        expect(scripts, command).toHaveProperty([script!]);
  });

  it('its cdk.json holds the choices, as the app’s infra reads them', () => {
    const context = JSON.parse(read(app, 'cdk.json')).context;
    const settings = readSettings((key) => context[key]);
    expect(settings.endpoint.api).toBe(api);
    expect(settings.endpoint.auth?.mode).toBe(auth);
  });

  it('keeps the validators generated for the tools it has', () => {
    // With the examples, the root's own; without, those of its one tool.
    const table = examples
      ? read(ROOT, 'src/generated/validators.generated.ts')
      : generateValidatorModules([ping]).table;
    const modules = examples
      ? filesBelow(join(ROOT, 'src/generated/validators'))
      : Object.keys(generateValidatorModules([ping]).modules).sort();
    expect(read(app, 'src/generated/validators.generated.ts')).toBe(table);
    expect(filesBelow(join(app, 'src/generated/validators'))).toEqual(modules);
  });
});

describe('npm create mcp-lambda refuses, in one line', () => {
  it('a folder that exists and is not empty', () => {
    const used = join(OUT, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'notes.txt'), 'mine');
    const run = create([used, '--no-install']);
    expect(run.status).toBe(1);
    expect(run.out).toContain('exists and is not empty');
    expect(readFileSync(join(used, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('no folder, or a choice it does not know', () => {
    expect(create(['--no-install']).out).toContain('name one new folder');
    const run = create([join(OUT, 'x'), '--api', 'websocket']);
    expect(run.status).toBe(1);
    expect(run.out).toContain('--api is http or rest-streaming, not "websocket"');
  });
});
