import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The guard of the loopback stand-ins for AWS services (the Lambda Invoke API, S3), which check no signature or
 * accept a key pair everyone knows: listening on 127.0.0.1 keeps other machines out, not web pages in this
 * machine's browser. A DNS-rebinding page names its own host; a page's cross-origin request carries an Origin, and
 * every request a current browser sends to a loopback address carries fetch metadata (`Sec-Fetch-Site`,
 * `Sec-Fetch-Dest`), also the no-cors GETs of an `<img>` that carry no Origin. The AWS SDK sends none of these (and
 * Node's own fetch only `Sec-Fetch-Mode`), so a request with any of them is refused before it is read.
 */

/** A loopback host as the SDK names the endpoint it was given, with or without a port. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/** Whether a Host header names this machine's loopback (a DNS-rebinding page's names its own host). */
export const isLoopbackHost = (host: string | undefined): boolean => LOOPBACK_HOST.test(host ?? '');

/** Whether a request comes from a tool on this machine rather than a web page (see the module comment). */
function fromLoopbackTool(req: IncomingMessage): boolean {
  const { host, origin } = req.headers;
  const browser = req.headers['sec-fetch-site'] !== undefined || req.headers['sec-fetch-dest'] !== undefined;
  return isLoopbackHost(host) && origin === undefined && !browser;
}

/** Answers 403 to a request that is not {@link fromLoopbackTool}; true when it did. */
export function refuseWebPage(req: IncomingMessage, res: ServerResponse): boolean {
  if (fromLoopbackTool(req)) return false;
  const body = JSON.stringify({ message: 'only tools on this machine may call this local service' });
  res.writeHead(403, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
  return true;
}
