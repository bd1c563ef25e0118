/**
 * What one answer to a `tools/call` was, told apart the way the protocol tells them apart: a transport-level
 * failure (non-2xx), a protocol failure (a JSON-RPC error), a tool failure (a result with `isError: true`), a
 * success, or something that is not an MCP answer at all.
 */

export type Outcome = 'ok' | 'tool-error' | 'rpc-error' | 'non-2xx' | 'malformed';

/** One classified answer, with a short detail for the report's first-failure samples. */
export interface Classified {
  outcome: Outcome;
  /** e.g. "HTTP 401", "-32602 Unknown tool: nope", "isError: Cannot divide by zero…". */
  detail?: string;
}

const DETAIL_LIMIT = 200;

const clip = (text: string) => (text.length > DETAIL_LIMIT ? `${text.slice(0, DETAIL_LIMIT)}…` : text);

/** The JSON-RPC messages of a body: one JSON message, or the `data:` messages of an SSE stream. */
export function messagesOf(contentType: string | undefined, body: string): unknown[] {
  if (/^\s*text\/event-stream/i.test(contentType ?? '')) {
    const messages: unknown[] = [];
    for (const event of body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data === '') continue;
      try {
        messages.push(JSON.parse(data));
      } catch {
        messages.push(undefined);
      }
    }
    return messages;
  }
  try {
    return [JSON.parse(body)];
  } catch {
    return [];
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The response among a body's messages: the one with an id and a result or an error (notifications skipped). */
function responseOf(messages: readonly unknown[]): Record<string, unknown> | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isObject(m) && m.jsonrpc === '2.0' && 'id' in m && ('result' in m || 'error' in m)) return m;
  }
  return undefined;
}

function firstText(result: Record<string, unknown>): string {
  const content = result.content;
  if (Array.isArray(content)) {
    const text = content.find((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string');
    if (text) return (text as { text: string }).text;
  }
  return '';
}

/**
 * The result of one HTTP answer to any request, or why it has none: a non-2xx status, a body that is not a
 * JSON-RPC response, or a JSON-RPC error.
 */
export function rpcAnswer(
  status: number,
  contentType: string | undefined,
  body: string,
): { result: unknown } | { outcome: 'non-2xx' | 'malformed' | 'rpc-error'; detail: string } {
  if (status < 200 || status > 299) {
    const error = responseOf(messagesOf(contentType, body))?.error;
    const rpc = isObject(error) ? ` (${String(error.code)} ${String(error.message)})` : '';
    return { outcome: 'non-2xx', detail: clip(`HTTP ${status}${rpc}`) };
  }
  const response = responseOf(messagesOf(contentType, body));
  if (!response)
    return { outcome: 'malformed', detail: clip(`HTTP ${status}, not a JSON-RPC response: ${body}`) };
  if ('error' in response) {
    const error = response.error;
    return {
      outcome: 'rpc-error',
      detail: clip(
        isObject(error) ? `${String(error.code)} ${String(error.message)}` : 'error is not an object',
      ),
    };
  }
  return { result: response.result };
}

/** Classifies the result of a `tools/call`: a `CallToolResult`, with or without `isError`, or something else. */
export function classifyResult(result: unknown): Classified {
  if (isObject(result) && result.resultType === 'input_required') {
    return {
      outcome: 'malformed',
      detail: 'input_required: the tool asks the client for input, which a load test cannot give',
    };
  }
  if (!isObject(result) || !Array.isArray(result.content)) {
    return { outcome: 'malformed', detail: clip(`result has no content array: ${JSON.stringify(result)}`) };
  }
  if (result.isError === true)
    return { outcome: 'tool-error', detail: clip(`isError: ${firstText(result)}`) };
  return { outcome: 'ok' };
}

/** Classifies one HTTP answer to a `tools/call`. */
export function classify(status: number, contentType: string | undefined, body: string): Classified {
  const answer = rpcAnswer(status, contentType, body);
  return 'result' in answer ? classifyResult(answer.result) : answer;
}
