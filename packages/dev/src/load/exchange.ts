/**
 * One HTTP exchange of a load run with node:http: a request sent on a kept-alive connection and its whole answer
 * read, or the reason there was none (a timeout or a transport error). It never rejects, so a caller files every
 * request it sent, whatever became of it.
 */
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WireRequest } from './mcp-request.ts';

/** How one exchange ended: an HTTP answer, or none. */
export type Exchanged =
  | { kind: 'timeout'; detail: string }
  | { kind: 'transport-error'; detail: string }
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: string };

/** The connection pool of a run: at most `maxSockets` sockets, kept open between requests. */
export function agentFor(url: URL, maxSockets: number): HttpAgent {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets };
  return url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}

/** Sends one POST and reads its whole answer, within `timeoutS`. */
export function exchange(
  url: URL,
  request: WireRequest,
  body: Buffer,
  agent: HttpAgent,
  timeoutS: number,
): Promise<Exchanged> {
  return new Promise<Exchanged>((done) => {
    let settled = false;
    const settle = (ending: Exchanged) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(ending);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      agent,
      headers: { ...request.headers, 'content-length': String(body.length) },
    });
    const timer = setTimeout(() => {
      settle({ kind: 'timeout', detail: `no answer within ${timeoutS} s` });
      req.destroy();
    }, timeoutS * 1000);
    req.on('error', (error: Error & { code?: string }) =>
      settle({ kind: 'transport-error', detail: error.code ?? error.message }),
    );
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error: Error & { code?: string }) =>
        settle({ kind: 'transport-error', detail: error.code ?? error.message }),
      );
      res.on('end', () =>
        settle({
          kind: 'answer',
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.end(body);
  });
}
