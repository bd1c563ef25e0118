/**
 * The registry tier (`npm run test:registry`): the packages go through a real npm registry on 127.0.0.1 to an app
 * made by `npm create mcp-lambda`, in a folder outside the repository, and that app is used as its README says:
 * install, test, synth, start, call a tool, read a stored output back, add README's tool, then take a patch release
 * of the server with `npm update`. Everything the app runs comes from the registry, as a user's does.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';
import { packAll, stage } from '../../release/pack.ts';
import { startupOutputs } from '../bench/bundle.ts';
import { ROOT } from '../support/packages.ts';
import { run, startRegistry, type Registry } from '../support/registry.ts';
import { addToList, readmeSteps } from '../support/readme-steps.ts';
import { appFiles, rpc, startApp } from './app.ts';

const WORK = mkdtempSync(join(tmpdir(), 'mcp-lambda-registry-'));
const APP = join(WORK, 'my-server');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'packages/server/package.json'), 'utf8')) as { version: string }
).version;
const PATCH = VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1));
let registry: Registry;

/** A command in the app's folder, as its user types it, against the local registry. */
const inApp = (command: string, ...args: string[]) => run(command, args, APP, registry.env);

/** How long a step took, printed with the run's output (goals live in the bench, not in assertions). */
function timed<T>(label: string, step: () => T): T {
  const started = performance.now();
  const result = step();
  console.log(`registry tier: ${label} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

beforeAll(async () => {
  registry = await startRegistry(join(WORK, 'registry'));
  for (const packed of packAll(join(WORK, 'packs'))) registry.publish(join(WORK, 'packs', packed.filename));
}, 600_000);
afterAll(() => registry?.stop());

/** What `esbuild` wrote for one build: its metafile, with paths relative to the folder it ran in. */
type Metafile = import('esbuild').Metafile;

/** The bytes a cold start loads: the handler module and the chunks it imports statically. */
function startupBytes(metafile: Metafile, outdir: string, cwd: string): number {
  return startupOutputs(metafile, relative(cwd, join(outdir, 'index.mjs'))).reduce(
    (sum, path) => sum + metafile.outputs[path]!.bytes,
    0,
  );
}

/**
 * The MCP function bundled in the app's folder by the app's own esbuild and `@mcp-lambda/cdk/bundling` (what the
 * stack deploys with), in a Node.js started there: its metafile.
 */
const APP_BUNDLE = `
import { build } from 'esbuild';
import { esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';
const [outdir] = process.argv.slice(1);
const { metafile } = await build({ ...esbuildOptions(FUNCTION_ENTRIES.mcp, outdir), absWorkingDir: process.cwd() });
process.stdout.write(JSON.stringify(metafile));
`;

describe('an app made by npm create mcp-lambda, on packages from a registry', () => {
  it('npm create writes the app outside the repository, and npm install takes every package from the registry', () => {
    // A cache of its own: npx runs a version it has cached without asking the registry, and each run of this tier
    // publishes the same version anew.
    const env = { ...registry.env, npm_config_cache: join(WORK, 'npx-cache') };
    const args = ['create', '--yes', `mcp-lambda@${VERSION}`, 'my-server', '--', '--no-install'];
    const created = run('npm', args, WORK, env);
    expect(created).toMatch(/Created my-server/);
    expect(created).toMatch(/Next:/);
    expect(relative(ROOT, APP).startsWith('..')).toBe(true);
    const manifest = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8'));
    expect(manifest.dependencies['@mcp-lambda/server']).toBe(`^${VERSION}`);
    timed('npm install', () => inApp('npm', 'install', '--no-audit', '--no-fund'));
    for (const name of ['server', 'bridge', 'cdk', 'dev']) {
      const installed = JSON.parse(
        readFileSync(join(APP, 'node_modules/@mcp-lambda', name, 'package.json'), 'utf8'),
      );
      expect(installed.version, name).toBe(VERSION);
      expect(readdirSync(join(APP, 'node_modules/@mcp-lambda', name))).not.toContain('src');
    }
  }, 600_000);

  it("npm test runs the app's own tests, green", () => {
    const output = timed('npm test', () => inApp('npm', 'test'));
    expect(output).toMatch(/Test Files\s+\d+ passed/);
    expect(output).not.toMatch(/packages\//);
  }, 300_000);

  it("npm run synth synthesizes offline, the repository's template for the same settings but the bundles' hashes", () => {
    const cdk = { CDK_HOME: join(WORK, 'cdk-home'), CDK_DISABLE_VERSION_CHECK: '1' };
    timed('npm run synth', () =>
      run('npm', ['run', 'synth', '--', '--quiet'], APP, { ...registry.env, ...cdk }),
    );
    // The repository's own synth, of the same settings (the app was created with the defaults, the root's).
    const rootOut = join(WORK, 'root-cdk.out');
    run('npx', ['cdk', 'synth', '--quiet', '-o', rootOut], ROOT, { ...process.env, ...cdk });
    const template = readdirSync(join(APP, 'cdk.out')).filter((file) => file.endsWith('.template.json'));
    expect(template).toEqual(readdirSync(rootOut).filter((file) => file.endsWith('.template.json')));
    // Asset hashes name the bundles' bytes: the app bundles the packages' built files, the repository their sources.
    const hashes = (text: string) => text.replace(/\b[0-9a-f]{64}\b/g, '<asset hash>');
    for (const file of template)
      expect(hashes(readFileSync(join(APP, 'cdk.out', file), 'utf8'))).toBe(
        hashes(readFileSync(join(rootOut, file), 'utf8')),
      );
  }, 300_000);

  it('npm start serves tools/call, and read_output reads a stored output back, a page at a time', async () => {
    const server = await startApp(APP, registry.env);
    try {
      const rows = 3000;
      const stored = await rpc(server.url, 'tools/call', { name: 'generate_report', arguments: { rows } });
      const link = stored.content.find((item: { type: string }) => item.type === 'resource_link');
      expect(link?.uri).toMatch(/^mcp-output:\/\//);
      let text = '';
      for (let offset: number | undefined = 0; offset !== undefined;) {
        const page = await rpc(server.url, 'tools/call', {
          name: 'read_output',
          arguments: { uri: link.uri, offset },
        });
        expect(page.isError, JSON.stringify(page.content)).toBeFalsy();
        text += page.structuredContent.text;
        offset = page.structuredContent.nextOffset;
      }
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toBe('id,date,region,units,unit_price,total');
      expect(lines.slice(1).map((line) => Number(line.split(',')[0]))).toEqual(
        Array.from({ length: rows }, (_, i) => i + 1),
      );
    } finally {
      await server.stop();
    }
  }, 300_000);

  it("the MCP function built from the published packages starts with the workspace build's graph (within 2%)", async () => {
    const workspaceOut = mkdtempSync(join(WORK, 'workspace-bundle-'));
    const built = await build({
      ...esbuildOptions(join(ROOT, FUNCTION_ENTRIES.mcp), workspaceOut),
      absWorkingDir: ROOT,
    });
    const workspace = startupBytes(built.metafile!, workspaceOut, ROOT);
    const appOut = mkdtempSync(join(WORK, 'app-bundle-'));
    const appMetafile = JSON.parse(
      inApp('node', '--input-type=module', '-e', APP_BUNDLE, appOut),
    ) as Metafile;
    const published = startupBytes(appMetafile, appOut, APP);
    console.log(
      `registry tier: MCP start-up graph ${published} B from the registry, ${workspace} B in the workspace`,
    );
    expect(Math.abs(published - workspace) / workspace).toBeLessThanOrEqual(0.02);
    expect(published).toBeLessThanOrEqual(85 * 1024);
  }, 120_000);

  it("README's tool added as the app README says: npm run generate, then npm test stays green", () => {
    const steps = readmeSteps(readFileSync(join(APP, 'README.md'), 'utf8'));
    writeFileSync(join(APP, steps.path), `${steps.code}\n`);
    const list = join(APP, steps.list);
    const from = `./${relative(dirname(list), join(APP, steps.path))}`;
    writeFileSync(list, addToList(readFileSync(list, 'utf8'), steps.exported, from));
    inApp('npm', 'run', 'generate');
    expect(timed('npm test with the new tool', () => inApp('npm', 'test'))).toMatch(
      /Test Files\s+\d+ passed/,
    );
  }, 300_000);

  it('a patch release of the server arrives with npm update: no file of the app changes, its tests stay green', async () => {
    const before = appFiles(APP);
    const marker = `Patched in ${PATCH}. `;
    const patched = patchRelease(marker);
    registry.publish(patched);
    timed('npm update', () => inApp('npm', 'update', '--no-audit', '--no-fund'));
    expect(appFiles(APP)).toEqual(before);
    const tree = JSON.parse(inApp('npm', 'ls', '@mcp-lambda/server', '--all', '--json'));
    const versions = new Set<string>();
    const walk = (deps: Record<string, any> = {}) => {
      for (const [name, dep] of Object.entries(deps)) {
        if (name === '@mcp-lambda/server') versions.add(dep.version);
        walk(dep.dependencies);
      }
    };
    walk(tree.dependencies);
    expect([...versions]).toEqual([PATCH]);
    expect(timed('npm test after the update', () => inApp('npm', 'test'))).toMatch(/Test Files\s+\d+ passed/);
    const server = await startApp(APP, registry.env);
    try {
      const { tools } = await rpc(server.url, 'tools/list', {});
      const readOutput = tools.find((tool: { name: string }) => tool.name === 'read_output');
      expect(readOutput.description.startsWith(marker)).toBe(true);
    } finally {
      await server.stop();
    }
  }, 600_000);
});

/**
 * A patch release of `@mcp-lambda/server` with a change a user can see: the server staged as release/pack.ts
 * stages it, at the next patch version, with `marker` at the head of read_output's description. Returns the staged
 * folder, ready to publish.
 */
function patchRelease(marker: string): string {
  const staged = stage('server', join(WORK, 'patch'));
  const manifestPath = join(staged, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, version: PATCH }, null, 2)}\n`);
  const head = "'Reads a large output a tool stored";
  const hits = builtFiles(join(staged, 'dist')).filter((file) => readFileSync(file, 'utf8').includes(head));
  expect(hits, `one built file holds ${head}`).toHaveLength(1);
  const text = readFileSync(hits[0]!, 'utf8');
  writeFileSync(hits[0]!, text.replace(head, `'${marker}${head.slice(1)}`));
  return staged;
}

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? builtFiles(join(dir, entry.name))
      : entry.name.endsWith('.js')
        ? [join(dir, entry.name)]
        : [],
  );
}
