/**
 * `npm run stress`: the interop tier (real SDK clients against the local servers) and the tests a loaded machine once
 * failed, three times at once, with a CPU hog beside them, on a machine with fewer cores than that: every run must
 * pass. A client of `npm start` must never see a reset connection, however busy the machine (CI runs this after
 * `npm test`).
 */
import { spawn, type ChildProcess } from 'node:child_process';

const RUNS = Number(process.env.UNDER_LOAD_RUNS ?? 3);

/** One phase: the test files (and, where given, the test names) that run `RUNS` times at once. */
interface Phase {
  label: string;
  paths: string[];
  names?: string;
  /** How many tests the names select: a renamed test would otherwise drop out of the phase unseen. */
  selects?: number;
}

/**
 * The interop tier whole, then the tests a loaded machine once failed while they passed alone (each since made
 * independent of the machine's speed), so they stay so. Those run by name: the rest of their files is not at risk.
 * The bundle test, which once ran out of time on a busy machine, is not among them: it waited on real CPU work (a
 * synth that bundles three functions before it, then a build each), not on the scheduler, and three copies of that
 * work at once would take this step past CI's time; its time limits now allow for a busy machine.
 */
const PHASES: Phase[] = [
  { label: 'interop', paths: ['test/interop'] },
  {
    label: 'once load-sensitive',
    paths: [
      'test/e2e/views-browser.test.ts',
      'packages/server/test/integration/asking-call-state.test.ts',
      'packages/server/test/integration/read-output-property.test.ts',
      'test/unit/readme-examples.test.ts',
      'test/e2e/views-output.test.ts',
      'test/integration/load-command.test.ts',
      'packages/server/test/integration/deadlines.test.ts',
      'packages/server/test/unit/live-stream.test.ts',
      'packages/dev/test/integration/local-server-limits.test.ts',
    ],
    names: [
      'clock is an hour ahead',
      'accepted just before the wait times out',
      'paging by offset',
      'type-checks where README says',
      'search steps through the matches',
      'is the answers over the real elapsed time',
      'a tool call whose output must be stored answers isError',
      'opens a quiet stream with a keep-alive comment',
      'holds no more than its limits allow',
    ].join('|'),
    // The call state case runs on two stores.
    selects: 10,
  },
];
const vitest = new URL('../../node_modules/vitest/vitest.mjs', import.meta.url).pathname;

function run(
  phase: Phase,
  index: number,
): Promise<{ index: number; code: number; tail: string; ms: number }> {
  const started = Date.now();
  const names = phase.names ? ['-t', phase.names] : [];
  // One test file at a time in each copy: three copies and the hog make the load this step is designed for (the
  // configuration's two workers per copy would double it).
  const args = [vitest, 'run', ...phase.paths, ...names, '--reporter=dot', '--maxWorkers=1'];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      // Vitest colours its summary even with FORCE_COLOR=0 here: read it without the escapes.
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      const passed = Number(/Tests\s+(\d+) passed/.exec(plain)?.[1] ?? 0);
      const short = phase.selects !== undefined && code === 0 && passed !== phase.selects;
      if (short) output += `\nthe names selected ${passed} tests, not ${phase.selects}: update the phase`;
      resolve({ index, code: short ? 1 : (code ?? 1), tail: output.slice(-4000), ms: Date.now() - started });
    }),
  );
}

/** A process that keeps one core busy until it is killed. */
function hog(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
}

const hogs = [hog()];
try {
  let failures = 0;
  for (const phase of PHASES) {
    const results = await Promise.all(Array.from({ length: RUNS }, (_, i) => run(phase, i + 1)));
    for (const r of results)
      console.log(
        `${phase.label} run ${r.index} of ${RUNS}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${(r.ms / 1000).toFixed(0)} s`,
      );
    const failed = results.filter((r) => r.code !== 0);
    for (const r of failed) console.error(`--- ${phase.label} run ${r.index} ---\n${r.tail}`);
    failures += failed.length;
  }
  process.exitCode = failures ? 1 : 0;
} finally {
  for (const h of hogs) h.kill('SIGKILL');
}
