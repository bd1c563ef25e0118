/**
 * `npm test` and `npm run test:<tier>`: runs vitest on the Node.js major in .nvmrc (the Lambda runtime's), whatever
 * Node.js is on PATH. On that major or newer it runs vitest at once. On an older one (many CI machines and
 * laptops still have Node.js 20) it installs that major once, from the npm registry the project already uses
 * (the `node` package resolves the platform's binary), into node_modules/.cache, says so in one line, and runs
 * the tests there, with that Node.js first on PATH for every process the tests start. Runs on Node.js 20 itself.
 *
 * Usage: node --import tsx test/support/on-lambda-node.ts vitest run [filters…]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAJOR = Number(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim());
const CACHE = join(ROOT, 'node_modules', '.cache', `node-${MAJOR}`);
const CACHED_NODE = join(CACHE, 'node_modules', 'node', 'bin', 'node');

const say = (line: string) => process.stderr.write(`npm test: ${line}\n`);
const majorOf = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** The version a Node.js binary reports, or undefined when it does not run. */
function versionOf(node: string): string | undefined {
  if (!existsSync(node)) return undefined;
  const run = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/**
 * Installs Node.js MAJOR into the cache: into a fresh folder first, renamed into place when complete, so an
 * interrupted install or a second run at the same time never leaves half a Node.js behind.
 */
function install(): void {
  say(
    `installing Node.js ${MAJOR} (.nvmrc) into ${relative(ROOT, CACHE)}, once; Node.js ${process.version} is on PATH`,
  );
  mkdirSync(dirname(CACHE), { recursive: true });
  const staging = mkdtempSync(`${CACHE}-`);
  // The npm that started this script (npm_execpath), else the one on PATH.
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm ? [process.execPath, [npm]] : ['npm', []];
  const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund'];
  const run = spawnSync(command, [...prefix, ...args, '--loglevel=error', `node@${MAJOR}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const installed = join(staging, 'node_modules', 'node', 'bin', 'node');
  if (run.status !== 0 || majorOf(versionOf(installed) ?? '') !== MAJOR) {
    rmSync(staging, { recursive: true, force: true });
    say(
      `could not install Node.js ${MAJOR}; install it yourself (for example \`nvm install\`) and run again`,
    );
    process.exit(1);
  }
  rmSync(CACHE, { recursive: true, force: true });
  renameSync(staging, CACHE);
}

/** This Node.js when it is recent enough, else the cached one (installed on first need). */
function lambdaNode(): string {
  if (majorOf(process.version) >= MAJOR) return process.execPath;
  if (majorOf(versionOf(CACHED_NODE) ?? '') !== MAJOR) install();
  const version = versionOf(CACHED_NODE)!;
  say(
    `running on Node.js ${version} from ${relative(ROOT, CACHE)} (.nvmrc; Node.js ${process.version} is on PATH)`,
  );
  return CACHED_NODE;
}

const [tool, ...args] = process.argv.slice(2);
if (tool !== 'vitest') {
  say(
    `usage: node --import tsx test/support/on-lambda-node.ts vitest run [filters…] (got ${tool ?? 'nothing'})`,
  );
  process.exit(2);
}
const node = lambdaNode();
const child = spawn(node, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), ...args], {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
