/**
 * A real npm registry on 127.0.0.1 for the registry tier: verdaccio, installed from the npm registry this machine
 * uses into a temporary folder, serving the `@mcp-lambda` packages and `create-mcp-lambda` from its own storage
 * (publishing open to anyone, never proxied) and every other package from the machine's registry as its uplink.
 * Started and stopped by the test; nothing of it stays behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { freePort } from './free-port.ts';

/** The version the tier runs, pinned: a registry is a test tool here, not a dependency of the project. */
const VERDACCIO = '6.10.4';

export interface Registry {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** What every npm command of a user pointed at this registry runs with. */
  env: NodeJS.ProcessEnv;
  /** `npm publish` of a packed tarball or a package folder. */
  publish(target: string): void;
  stop(): Promise<void>;
}

/**
 * The environment of a user's shell: the vitest run's own npm and Node.js settings left out (npm sets `npm_*` for
 * the script that started it, and this repository's NODE_OPTIONS selects its TypeScript sources), Node.js 22 still
 * first on PATH (test/support/on-lambda-node.ts).
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(npm_|NODE_OPTIONS$|INIT_CWD$|VITEST|TEST$)/i.test(name)) env[name] = value;
  return { ...env, ...extra };
}

/** Runs a command as a user would; answers its standard output, or throws with all it printed when it fails. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.slice(-6000);
    throw new Error(`${command} ${args.slice(0, 4).join(' ')} exited with ${result.status}:\n${output}`);
  }
  return stripVTControlCharacters(result.stdout);
}

/** Verdaccio's configuration: our packages local and open, everything else through the machine's registry. */
function config(storage: string, uplink: string): string {
  return [
    `storage: ${JSON.stringify(storage)}`,
    'uplinks:',
    '  machine:',
    `    url: ${JSON.stringify(uplink)}`,
    '    timeout: 120s',
    // What the uplink said of a package holds for the run: `npm update` asks again for every package the app has.
    '    maxage: 60m',
    'packages:',
    ...['@mcp-lambda/*', 'create-mcp-lambda'].flatMap((name) => [
      `  '${name}':`,
      '    access: $all',
      '    publish: $all',
    ]),
    "  '**':",
    '    access: $all',
    '    proxy: machine',
    'log: { type: stdout, format: json, level: warn }',
    '',
  ].join('\n');
}

/** Waits for the registry's ping, or for it to exit. */
async function ready(child: ChildProcess, url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output()}`);
    const ok = await fetch(new URL('-/ping', url)).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((wait) => setTimeout(wait, 250));
  }
  throw new Error(`verdaccio did not answer within 60 s:\n${output()}`);
}

/** Installs verdaccio into `folder` and starts it on a free port of 127.0.0.1. */
export async function startRegistry(folder: string): Promise<Registry> {
  const tool = join(folder, 'verdaccio');
  mkdirSync(tool, { recursive: true });
  // A dependency of verdaccio asks for `node-fetch@cjs`, a dist-tag registry mirrors may not serve: pin its release.
  const manifest = {
    name: 'local-registry',
    private: true,
    dependencies: { verdaccio: VERDACCIO },
    overrides: { 'node-fetch': '2.7.0' },
  };
  writeFileSync(join(tool, 'package.json'), JSON.stringify(manifest));
  const env = userEnv();
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], tool, env);

  const uplink = run('npm', ['config', 'get', 'registry'], folder, env).trim();
  const storage = join(folder, 'storage');
  writeFileSync(join(folder, 'config.yaml'), config(storage, uplink));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const bin = join(tool, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const child = spawn(
    process.execPath,
    [bin, '--config', join(folder, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
    {
      cwd: folder,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (chunk: Buffer) => (output = `${output}${chunk.toString('utf8')}`.slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await ready(child, url, () => output);

  // Publishing needs a token for the registry's host, whatever it is: anonymous publishing then passes.
  const userconfig = join(folder, 'publish.npmrc');
  writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=local-registry-tier\n`);
  const userEnvironment = userEnv({ npm_config_registry: url });
  return {
    url,
    env: userEnvironment,
    publish: (target) =>
      void run(
        'npm',
        ['publish', target, '--access', 'public', '--registry', url, '--userconfig', userconfig],
        folder,
        userEnvironment,
      ),
    stop: () =>
      new Promise<void>((stopped) => {
        if (child.exitCode !== null) return stopped();
        child.once('exit', () => stopped());
        child.kill('SIGTERM');
      }),
  };
}
