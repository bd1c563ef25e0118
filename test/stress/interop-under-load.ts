/**
 * `npm run stress`: the interop tier (real SDK clients against the local servers) and the tests a loaded machine once
 * failed, three times at once, with a CPU hog beside them, on a machine with fewer cores than that: every run must
 * pass. A client of `npm start` must never see a reset connection, however busy the machine (CI runs this after
 * `npm test`).
 */
import { spawn, type ChildProcess } from 'node:child_process';

const RUNS = Number(process.env.UNDER_LOAD_RUNS ?? 3);
/**
 * What each run tests: the interop tier, and the tests a loaded machine once failed while they passed alone (each
 * since made independent of the machine's speed), so they stay so.
 */
const UNDER_LOAD = [
  'test/interop',
  'test/e2e/views-browser.test.ts',
  'packages/server/test/integration/asking-rendezvous.test.ts',
  'packages/server/test/integration/read-output-property.test.ts',
  'test/unit/readme-examples.test.ts',
];
const vitest = new URL('../../node_modules/vitest/vitest.mjs', import.meta.url).pathname;

function run(index: number): Promise<{ index: number; code: number; tail: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [vitest, 'run', ...UNDER_LOAD, '--reporter=dot'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ index, code: code ?? 1, tail: output.slice(-4000), ms: Date.now() - started }),
    ),
  );
}

/** A process that keeps one core busy until it is killed. */
function hog(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
}

const hogs = [hog()];
try {
  const results = await Promise.all(Array.from({ length: RUNS }, (_, i) => run(i + 1)));
  for (const r of results)
    console.log(
      `interop run ${r.index} of ${RUNS}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${(r.ms / 1000).toFixed(0)} s`,
    );
  const failed = results.filter((r) => r.code !== 0);
  for (const r of failed) console.error(`--- run ${r.index} ---\n${r.tail}`);
  process.exitCode = failed.length ? 1 : 0;
} finally {
  for (const h of hogs) h.kill('SIGKILL');
}
