/** One SSE event as a client received it: when (performance.now(), this process) and what. */
export interface ArrivedEvent {
  at: number;
  /** The JSON message of a `data:` line; undefined for a comment-only block (keep-alive) or a priming event. */
  message?: { id?: unknown; method?: string; params?: any; result?: any; error?: any };
  comment?: string;
  /** The event's `id` (resumable streams) and `retry` field, when it has them. */
  id?: string;
  retry?: number;
}

/**
 * Reads an SSE response body as it arrives and records each event with its arrival time, the way a client sees
 * them (blocks separated by a blank line; `data:` lines joined; lines starting with `:` are comments).
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ArrivedEvent) => void = () => {},
): Promise<ArrivedEvent[]> {
  const events: ArrivedEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const at = performance.now();
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      const field = (name: string) =>
        lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ''));
      const data = field('data').join('\n');
      const [id, retry] = [field('id').at(-1), field('retry').at(-1)];
      const comment = lines.find((l) => l.startsWith(':'));
      // A priming event (SEP-1699) has an id and empty data: no message.
      const event: ArrivedEvent = {
        at,
        ...(data ? { message: JSON.parse(data) } : { comment: comment?.slice(1).trim() ?? '' }),
        ...(id !== undefined ? { id } : {}),
        ...(retry !== undefined ? { retry: Number(retry) } : {}),
      };
      events.push(event);
      onEvent(event);
    }
  }
  return events;
}
