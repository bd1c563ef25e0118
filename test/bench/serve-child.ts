/**
 * A server child of the benchmark (children/serve.ts), spoken to over IPC. A child can die at any time (a crash, the
 * machine out of memory): every wait on it then ends with an error that says which child and how it ended, never a
 * hang, and nothing is sent on a closed channel (Node would throw ERR_IPC_CHANNEL_CLOSED outside any part).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { basename, dirname } from 'node:path';
import type { Artifacts } from './bundle.ts';
import type { ServeCommand, ServeMessage } from './children/protocol.ts';
import { lambdaEnvironment, type ChildRuntime } from './probe.ts';

/** Memory of a server child, in bytes. */
export interface MemoryStats {
  rssBytes: number;
  maxRssBytes: number;
  heapUsedBytes: number;
  /** Peak RSS since the last reset (see `stats`); reported by the serve child. */
  windowPeakRssBytes?: number;
}

/** A running server child. */
export interface ServeChild {
  url: string;
  /** Memory now (after a full GC when `gc`); `resetPeak` starts a new window for `windowPeakRssBytes`. */
  stats(gc: boolean, resetPeak?: boolean): Promise<MemoryStats>;
  /** Stops the child, or kills it after STOP_GRACE_MS; never throws, so cleanup always goes on. */
  stop(): Promise<void>;
}

/** What a server child serves: a bundle behind the local server, the local server alone, or bare node:http. */
export type ServeTarget = string | 'bare' | 'emulation';

const START_TIMEOUT_MS = 30_000;
const STATS_TIMEOUT_MS = 10_000;
/** How long a child may take to stop before it is killed. */
const STOP_GRACE_MS = 5_000;

/**
 * A child that closes its channel is usually exiting: its exit, the better reason, is waited for this long before
 * the closed channel is reported.
 */
const EXIT_AFTER_DISCONNECT_MS = 500;

/** Server children that ended before they were told to stop, since `takeChildDeaths` was last called. */
const deaths: string[] = [];

/**
 * The server children that ended unbidden since the last call, each as "server child NAME exited with …": the
 * likely cause of whatever failed meanwhile (a request to a dead child fails only with "fetch failed").
 */
export function takeChildDeaths(): string[] {
  return deaths.splice(0);
}

/** One child and how it ended; `exited` resolves when the process is over (or never started). */
class Link {
  private ended: string | undefined;
  private disconnected = false;
  private stopping = false;
  readonly exited: Promise<void>;

  constructor(
    readonly proc: ChildProcess,
    readonly name: string,
  ) {
    this.exited = new Promise<void>((resolve) => {
      proc.once('exit', (code, signal) => {
        this.ended = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        if (!this.stopping) deaths.push(`server child ${name} ${this.ended}`);
        resolve();
      });
      // A child that could not be started never exits.
      proc.on('error', (error) => {
        this.ended ??= `failed: ${error.message}`;
        if (proc.pid === undefined) resolve();
      });
    });
    proc.once('disconnect', () => (this.disconnected = true));
  }

  /** Why the child can answer no more, if it cannot. */
  private gone(): string | undefined {
    return this.ended ?? (this.disconnected ? 'closed its IPC channel' : undefined);
  }

  /** An error naming the child and how it ended. */
  private failure(type: string): Error {
    return new Error(`server child ${this.name} ${this.gone() ?? 'is gone'} (waiting for "${type}")`);
  }

  /** Sends a command; on a closed channel it sends nothing, and whatever waits on an answer learns why. */
  send(command: ServeCommand): void {
    if (this.proc.connected) this.proc.send(command, () => undefined);
  }

  /** The next message of `type`; rejects when the child reports an error, ends, or sends none in `timeoutMs`. */
  next(type: ServeMessage['type'], timeoutMs: number): Promise<ServeMessage> {
    const { proc } = this;
    return new Promise((resolve, reject) => {
      let grace: NodeJS.Timeout | undefined;
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`server child ${this.name} sent no "${type}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (message: ServeMessage) => {
        if (message.type !== 'error' && message.type !== type) return;
        cleanup();
        if (message.type === type) resolve(message);
        else
          reject(new Error(`server child ${this.name} failed: ${(message as { message: string }).message}`));
      };
      const onEnd = () => {
        cleanup();
        reject(this.failure(type));
      };
      const onDisconnect = () => (grace ??= setTimeout(onEnd, EXIT_AFTER_DISCONNECT_MS));
      const cleanup = () => {
        clearTimeout(timer);
        clearTimeout(grace);
        proc.off('message', onMessage);
        proc.off('exit', onEnd);
        proc.off('error', onEnd);
        proc.off('disconnect', onDisconnect);
      };
      if (this.ended) return onEnd();
      proc.on('message', onMessage);
      // These run after the Link's own listeners, so the reason is known when onEnd reads it.
      proc.once('exit', onEnd);
      proc.once('error', onEnd);
      if (this.disconnected || !proc.connected) onDisconnect();
      else proc.once('disconnect', onDisconnect);
    });
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.stopping = true;
    if (this.proc.connected) this.send({ type: 'stop' });
    else this.proc.kill('SIGKILL');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The child's name in messages: what it serves. */
function nameOf(bundle: ServeTarget, invokeAs: string | undefined): string {
  if (invokeAs) return invokeAs;
  if (bundle === 'bare' || bundle === 'emulation') return bundle;
  return basename(dirname(bundle));
}

/** Starts a server child: a bundled function behind the local server, the local server alone, or bare node:http. */
export async function startServeChild(
  runtime: ChildRuntime,
  artifacts: Artifacts,
  bundle: ServeTarget,
  env: Readonly<Record<string, string>> = {},
  /** Serve the bundle as a directly invoked function of this name (the companion), not behind API Gateway. */
  invokeAs?: string,
): Promise<ServeChild> {
  const proc = fork(
    artifacts.children.serve,
    bundle === 'bare' || bundle === 'emulation'
      ? [`--${bundle}`]
      : [bundle, ...(invokeAs ? ['--invoke', invokeAs] : [])],
    {
      execPath: runtime.node,
      execArgv: [...runtime.execArgv, '--expose-gc'],
      env: lambdaEnvironment(env),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  const link = new Link(proc, nameOf(bundle, invokeAs));
  let listening: ServeMessage;
  try {
    listening = await link.next('listening', START_TIMEOUT_MS);
  } catch (error) {
    proc.kill('SIGKILL');
    throw error;
  }
  return {
    url: (listening as { url: string }).url,
    async stats(gc, resetPeak = false) {
      const reply = link.next('stats', STATS_TIMEOUT_MS);
      link.send({ type: 'stats', gc, resetPeak });
      const { rssBytes, maxRssBytes, heapUsedBytes, windowPeakRssBytes } = (await reply) as MemoryStats & {
        type: 'stats';
      };
      return { rssBytes, maxRssBytes, heapUsedBytes, windowPeakRssBytes };
    },
    stop: () => link.stop(),
  };
}
