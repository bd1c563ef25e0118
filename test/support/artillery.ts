/**
 * Artillery for the tests that run an emitted load test with it: the npm package at one version, installed once
 * from the npm registry the project already uses into node_modules/.cache (into a fresh folder first, renamed into
 * place when complete, as on-lambda-node.ts installs Node.js), so later runs start at once. Install scripts are not
 * run: the one that matters downloads the browser of Artillery's Playwright engine, which an MCP test never uses
 * and which a machine with no network but the registry cannot fetch. Without the registry the test that asked says
 * why and skips, as the browser tests do without a browser; under `CI=true` it fails instead, so a CI without
 * Artillery can never pass by skipping.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The version the emitted tests are checked against (docs/performance.md names it). */
const ARTILLERY_VERSION = '2.0.34';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', `artillery-${ARTILLERY_VERSION}`);
const BIN = join(CACHE, 'node_modules', 'artillery', 'bin', 'run');

/** Whether the cache holds Artillery at the version asked for. */
function installed(): boolean {
  if (!existsSync(BIN)) return false;
  const manifest = join(CACHE, 'node_modules', 'artillery', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version === ARTILLERY_VERSION;
}

/** Installs Artillery into the cache; answers why not when it could not. */
async function install(): Promise<string | undefined> {
  mkdirSync(dirname(CACHE), { recursive: true });
  const staging = mkdtempSync(`${CACHE}-`);
  // The npm that started the tests (npm_execpath), else the one on PATH.
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm ? [process.execPath, [npm]] : ['npm', []];
  const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund'];
  try {
    await promisify(execFile)(
      command,
      [
        ...prefix,
        ...args,
        '--ignore-scripts',
        '--prefer-offline',
        '--loglevel=error',
        `artillery@${ARTILLERY_VERSION}`,
      ],
      { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // npm's own line that names the error's code, e.g. "npm error code ECONNREFUSED".
    const lines = ((error as { stderr?: string }).stderr ?? '').split('\n').map((line) => line.trim());
    return lines.find((line) => / code /.test(line)) ?? (error as Error).message.split('\n')[0]!;
  }
  // Another run may have finished first: its copy is as good.
  if (installed()) rmSync(staging, { recursive: true, force: true });
  else {
    rmSync(CACHE, { recursive: true, force: true });
    renameSync(staging, CACHE);
  }
  return undefined;
}

/**
 * Artillery's bin (run it with Node.js), installing it first when needed; undefined to skip the test that asked,
 * which `file` names, after saying why. Under `CI=true` a failed install throws instead.
 */
export async function requireArtillery(file: string): Promise<string | undefined> {
  const why = installed() ? undefined : await install();
  if (why === undefined) return BIN;
  const message = `${file}: cannot install artillery@${ARTILLERY_VERSION} from the npm registry (${why})`;
  if (process.env.CI === 'true') throw new Error(`${message}, and CI=true does not skip the Artillery test`);
  console.warn(`${message}: skipped`);
  return undefined;
}
