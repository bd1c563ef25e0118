/**
 * A fetch that records every HTTP exchange a real client has with the server, so interop tests can assert what
 * went over the wire (era, headers, result envelopes) and not only what the client library chose to surface.
 */

/** One JSON-RPC message a response carried (the JSON body, or each SSE `data:` event). */
export type WireMessage = { id?: unknown; method?: string; result?: any; error?: any; params?: any };

/** One recorded HTTP exchange. */
export interface Exchange {
  method: string;
  requestHeaders: Record<string, string>;
  request: WireMessage | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  responses: WireMessage[];
}

function messagesOf(contentType: string, body: string): WireMessage[] {
  if (body === '') return [];
  if (contentType.startsWith('text/event-stream')) {
    return body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5).trim()) as WireMessage);
  }
  try {
    return [JSON.parse(body) as WireMessage];
  } catch {
    return [];
  }
}

/** A recording fetch plus the exchanges it saw, oldest first. */
export function recordingFetch(): {
  fetch: typeof fetch;
  exchanges: Exchange[];
  /** The exchanges whose request was the JSON-RPC method given. */
  calls(method: string): Exchange[];
} {
  const exchanges: Exchange[] = [];
  const recorder: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const requestHeaders = Object.fromEntries(new Headers(init?.headers).entries());
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const contentType = response.headers.get('content-type') ?? '';
    const body = await response.clone().text();
    exchanges.push({
      method: init?.method ?? 'GET',
      requestHeaders,
      request: text ? (JSON.parse(text) as WireMessage) : undefined,
      status: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      responses: messagesOf(contentType, body),
    });
    return response;
  };
  return {
    fetch: recorder,
    exchanges,
    calls: (method) => exchanges.filter((e) => e.request?.method === method),
  };
}

/** The final JSON-RPC response of an exchange (the last message carrying a result or an error). */
export function finalResponse(exchange: Exchange): WireMessage | undefined {
  return [...exchange.responses].reverse().find((m) => 'result' in m || 'error' in m);
}
