import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The guard of the loopback stand-ins for AWS services (the Lambda Invoke API, S3), which check no signature or
 * accept a key pair everyone knows: listening on 127.0.0.1 keeps other machines out, not web pages in this
 * machine's browser. A DNS-rebinding page names its own host, and any page sends an Origin; the AWS SDK sends
 * neither, so a request with either is refused before it is read.
 */

/** A loopback host as the SDK names the endpoint it was given, with or without a port. */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/** Whether a request comes from a tool on this machine rather than a web page (see the module comment). */
export function fromLoopbackTool(req: IncomingMessage): boolean {
  return LOOPBACK_HOST.test(req.headers.host ?? '') && req.headers.origin === undefined;
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
