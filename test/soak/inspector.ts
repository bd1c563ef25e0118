/**
 * A minimal Chrome DevTools Protocol client for a Node.js process started with `--inspect=127.0.0.1:0`: enough to
 * force a full garbage collection in it and read its memory figures from outside, so a soak measures the very
 * process a user runs.
 */

/** What the soak reads from the process: as found, and after a full collection. */
export interface MemorySample {
  /** RSS as found, before the collection: what `ps` showed the user. */
  rssAsFound: number;
  /** V8 heap in use as found: garbage not yet collected included. */
  heapAsFound: number;
  /** Resident set size: what the system sees (the allocator's pages included). */
  rss: number;
  /** V8 heap in use after the collection: JavaScript objects still reachable. */
  heapUsed: number;
  /** Memory of Buffers and other objects held outside the V8 heap. */
  external: number;
  arrayBuffers: number;
  /** Handles and requests the event loop still holds (sockets, timers, file handles). */
  resources: number;
}

export interface Inspector {
  /** Samples, runs two full collections, samples again. */
  sample(): Promise<MemorySample>;
  /** Samples without collecting: RSS and heap as the process left them. */
  peek(): Promise<Pick<MemorySample, 'rss' | 'heapUsed' | 'external' | 'arrayBuffers'>>;
  close(): void;
}

const MEMORY = `JSON.stringify({ ...process.memoryUsage(), resources: process.getActiveResourcesInfo().length })`;

/** Connects to the inspector URL the process printed (`Debugger listening on ws://…`). */
export async function connectInspector(url: string): Promise<Inspector> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot reach the inspector at ${url}`)), {
      once: true,
    });
  });
  let nextId = 1;
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
    pending.delete(message.id ?? -1);
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call('Runtime.enable');
  const read = async () => {
    const answer = await call('Runtime.evaluate', { expression: MEMORY, returnByValue: true });
    return JSON.parse((answer as { result: { value: string } }).result.value) as MemorySample;
  };
  return {
    peek: read,
    async sample() {
      const found = await read();
      await call('HeapProfiler.collectGarbage');
      await call('HeapProfiler.collectGarbage');
      return { ...(await read()), rssAsFound: found.rss, heapAsFound: found.heapUsed };
    },
    close: () => socket.close(),
  };
}
