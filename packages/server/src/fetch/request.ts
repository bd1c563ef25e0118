import type { HttpRequest } from '../wire/types.ts';

/**
 * The body of a Fetch request as text, read up to `limit` bytes and one more: a larger body is cut there (and the
 * rest never read), which is still larger than the limit, so the transport answers 413 without the server holding
 * an unbounded body in memory.
 */
async function boundedText(request: Request, limit: number): Promise<string | undefined> {
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (size > limit) await reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Translates a Fetch `Request` into a neutral request: the URL's path and raw query, the headers (Fetch names them
 * in lower case and joins repeated ones with ", "), the Cookie header as a list of `name=value` pairs (where the
 * Lambda adapters put cookies too), and the body read within `maxBodyBytes` (see {@link boundedText}).
 */
export async function fromFetchRequest(request: Request, maxBodyBytes: number): Promise<HttpRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  const cookies = (headers.cookie ?? '')
    .split(';')
    .map((cookie) => cookie.trim())
    .filter(Boolean);
  delete headers.cookie;
  const body = await boundedText(request, maxBodyBytes);
  return {
    method: request.method,
    path: url.pathname,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(url.search.length > 1 ? { query: url.search.slice(1) } : {}),
    ...(cookies.length ? { cookies } : {}),
  };
}
