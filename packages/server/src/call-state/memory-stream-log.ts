import type { StreamHead, LoggedEvent, StreamLog } from './stores.ts';

/**
 * Stream logs in this process's memory (the memory call state's part). Each log keeps its own events, so an
 * expired one is removed whole, at no cost in the others' events; expired logs are removed as new ones start.
 */
export function memoryStreamLog(): StreamLog {
  const logs = new Map<string, { head: StreamHead; events: Map<number, LoggedEvent> }>();
  const sweep = (now: number) => {
    for (const [id, { head }] of logs) if (head.until <= now) logs.delete(id);
  };
  const live = (streamId: string, now: number) => {
    const log = logs.get(streamId);
    return log && log.head.until > now ? log : undefined;
  };
  return {
    async startLog(head) {
      sweep(Date.now());
      logs.set(head.streamId, { head: structuredClone(head), events: new Map() });
    },
    async appendEvent({ streamId, event }) {
      live(streamId, Date.now())?.events.set(event.position, { ...event });
    },
    async readHead({ streamId, now }) {
      const log = live(streamId, now);
      return log && structuredClone(log.head);
    },
    async readEvent({ streamId, position }) {
      const event = logs.get(streamId)?.events.get(position);
      return event && { ...event };
    },
  };
}
