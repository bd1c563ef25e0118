/**
 * `npm test`, `npm run test:<tier>` and `npm run bench`: runs vitest, or the benchmark, on the Node.js major in .nvmrc
 * (the Lambda runtime's), whatever Node.js is on PATH. On that major or newer it runs the tool at once. On an older
 * one (many CI machines and laptops still have Node.js 20) it installs that major once, from the npm registry the
 * project already uses (the `node` package resolves the platform's binary), into node_modules/.cache, says so in one
 * line, and runs the tool there, with that Node.js first on PATH for every process the tool starts. Runs on Node.js
 * 20 itself.
 *
 * Usage: node --import tsx test/support/on-lambda-node.ts vitest run [filters…]
 *        node --import tsx test/support/on-lambda-node.ts bench [options…]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAJOR = Number(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim());
const CACHE = join(ROOT, 'node_modules', '.cache', `node-${MAJOR}`);
const CACHED_NODE = join(CACHE, 'node_modules', 'node', 'bin', 'node');

/** What the runner starts, by the name its command line gives: the command it stands for, and Node's arguments. */
const TOOLS: Readonly<Record<string, { command: string; args: readonly string[] }>> = {
  vitest: { command: 'npm test', args: [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')] },
  bench: { command: 'npm run bench', args: ['--import', 'tsx', join(ROOT, 'test', 'bench', 'run.ts')] },
};

const [tool, ...args] = process.argv.slice(2);
const started = tool !== undefined && Object.hasOwn(TOOLS, tool) ? TOOLS[tool] : undefined;
const command = started?.command ?? 'npm test';
const say = (line: string) => process.stderr.write(`${command}: ${line}\n`);
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

if (!started) {
  say(
    'usage: node --import tsx test/support/on-lambda-node.ts vitest run [filters…] | bench [options…] ' +
      `(got ${tool ?? 'nothing'})`,
  );
  process.exit(2);
}
const node = lambdaNode();
const child = spawn(node, [...started.args, ...args], {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
