import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The runner of `npm test` and every `npm run test:<tier>`: on the Node.js of .nvmrc (or newer) it runs vitest
// at once and says nothing; on an older one it installs that Node.js once and says so in one line (measured by
// hand with Node.js 20: the first run adds the install, about 5–10 s, every later run about 1 s).

const root = fileURLToPath(new URL('../../', import.meta.url));
const runner = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'test/support/on-lambda-node.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });

describe('npm test runs vitest on the Node.js of .nvmrc', () => {
  it('on that Node.js it runs vitest directly, adds no line of its own, and passes its exit status on', () => {
    const passed = runner(['vitest', 'run', 'test/unit/test-tiers.test.ts']);
    expect(passed.status).toBe(0);
    expect(passed.stdout).toMatch(/Test Files\s+1 passed/);
    expect(passed.stderr).not.toMatch(/npm test:/);
    const none = runner(['vitest', 'run', 'test/no-such-folder']);
    expect(none.status).toBe(1);
  });

  it('npm run bench goes through the same runner, which starts the benchmark with its options', () => {
    const scripts = (
      JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.bench).toBe('node --import tsx test/support/on-lambda-node.ts bench');
    const help = runner(['bench', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run bench -- \[options\]/);
  });

  it('anything but vitest or the benchmark is a usage error, in one line', () => {
    const run = runner(['jest']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^npm test: usage: node --import tsx test\/support\/on-lambda-node.ts vitest run .* \| bench /,
      ),
    ]);
  });
});
