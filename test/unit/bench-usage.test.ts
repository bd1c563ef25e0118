import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runLine, USAGE } from '../bench/usage.ts';

describe('npm run bench says how to run it short', () => {
  it('the usage names --quick before the option list, with what each kind of run costs', () => {
    const [head] = USAGE.split('\n  --');
    expect(head).toMatch(/--quick is a short smoke run/);
    expect(head).toMatch(/about 3 minutes/);
  });

  it('a full run starts by naming --quick and --help; a quick run says it is one', () => {
    expect(runLine(false)).toMatch(/^full run: .*--quick.*--help/);
    expect(runLine(true)).toMatch(/^quick run \(--quick\)/);
  });

  it('a wrong option fails in one line that points at --help', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/bench/run.ts', '--bogus'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      "bench failed: Unknown option '--bogus' (npm run bench -- --help lists every option)",
    ]);
  });
});
