import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Artifacts } from '../bench/bundle.ts';
import type { ChildRuntime } from '../bench/probe.ts';
import { startServeChild, takeChildDeaths } from '../bench/serve-child.ts';

/**
 * A server child of the benchmark that dies (exits, is killed, closes its IPC channel) ends what waits on it with a
 * message naming it and how it ended; stopping it afterwards is quiet. Once, `stop()` on a child gone before it
 * sent on a closed channel, and ERR_IPC_CHANNEL_CLOSED ended the whole run.
 */

/** A stand-in for children/serve.ts that behaves as the folder of its "bundle" says, after saying it listens. */
const FAKE_SERVE = `
import { basename, dirname } from 'node:path';
const mode = basename(dirname(process.argv[2]));
if (mode === 'never-listens') process.exit(4);
process.send({ type: 'listening', url: 'http://127.0.0.1:9/mcp' });
if (mode === 'exits') setTimeout(() => process.exit(3), 50);
if (mode === 'killed') setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50);
if (mode === 'disconnects') process.disconnect();
const alive = setInterval(() => undefined, 1_000);
process.on('message', (command) => {
  if (command.type === 'stop') process.exit(0);
  process.send({ type: 'stats', rssBytes: 1, maxRssBytes: 2, heapUsedBytes: 3 });
});
`;

const runtime: ChildRuntime = { node: process.execPath, execArgv: [] };
let dir: string;
let artifacts: Artifacts;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-children-'));
  await writeFile(join(dir, 'serve.mjs'), FAKE_SERVE);
  artifacts = { children: { serve: join(dir, 'serve.mjs') } } as Artifacts;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const start = (mode: string) => startServeChild(runtime, artifacts, join(dir, mode, 'index.mjs'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a server child of the benchmark that dies', () => {
  it('answers while it lives, and stops when told', async () => {
    const child = await start('well');
    expect(await child.stats(false)).toMatchObject({ rssBytes: 1, maxRssBytes: 2 });
    await child.stop();
    expect(takeChildDeaths()).toEqual([]);
  });

  it('that exited: stats say so, naming it, and stop() is quiet', async () => {
    const child = await start('exits');
    await sleep(300);
    await expect(child.stats(true)).rejects.toThrow(
      'server child exits exited with code 3 (waiting for "stats")',
    );
    await child.stop();
  });

  it('that was killed: stats say by what, and stop() neither hangs nor sends on the closed channel', async () => {
    takeChildDeaths();
    const child = await start('killed');
    await sleep(300);
    await expect(child.stats(false)).rejects.toThrow('server child killed was killed by SIGKILL');
    await child.stop();
    // The run names it as the likely cause of whatever failed meanwhile; a child stopped on purpose is no death.
    expect(takeChildDeaths()).toEqual(['server child killed was killed by SIGKILL']);
  });

  it('that closed its IPC channel but runs on: stats say so, and stop() kills it', async () => {
    const child = await start('disconnects');
    await sleep(200);
    await expect(child.stats(false)).rejects.toThrow('server child disconnects closed its IPC channel');
    await child.stop();
  });

  it('that dies before it listens: the start fails, naming it', async () => {
    await expect(start('never-listens')).rejects.toThrow(
      'server child never-listens exited with code 4 (waiting for "listening")',
    );
  });
});
